import LimenServerWire

/// The `CBOR` harness's check, also replayed over its seed corpus by `CorpusTests`: the input read by ``CBORReader``,
/// as a COSE key, as an attestation object and as authenticator data (WebAuthn's parsers of untrusted bytes).
///
/// - Reading never crashes; what it refuses, it refuses with a typed error.
/// - An item read as a prefix reads the same, with the same length, when bytes follow it; the whole input reads as
///   one item exactly when the prefix is all of it.
/// - Authenticator data read has what its flags announce, and nothing they do not: attested credential data exactly
///   when AT is set (its credential ID at most 1,023 bytes), extensions exactly when ED is set, BS only with BE.
package enum CBORCheck {
    /// Checks one input; throws what it finds.
    package static func check(_ input: some Sequence<UInt8>) throws(FuzzFinding) {
        let bytes = Array(input)
        checkPrefix(bytes)
        if let (value, length) = try? CBORReader.readPrefix(bytes) {
            guard length > 0, length <= bytes.count else {
                throw FuzzFinding(description: "an item of \(length) bytes read from \(bytes.count)")
            }
            guard let (again, againLength) = try? CBORReader.readPrefix(bytes[..<length] + [0x00]),
                again == value, againLength == length
            else { throw FuzzFinding(description: "\(bytes) reads differently when a byte follows its item") }
            let whole = try? CBORReader.read(bytes)
            guard (whole != nil) == (length == bytes.count) else {
                throw FuzzFinding(description: "\(bytes): read whole \(whole != nil), prefix \(length) bytes")
            }
            _ = try? COSEKey(value)
        }
        _ = try? AttestationObject(bytes: bytes)
        _ = try? ClientData(json: bytes)
        if let data = try? AuthenticatorData(bytes: bytes) {
            try checkFlags(data)
        }
    }

    /// Reading a prefix of the input never crashes either (the truncations a parser meets most).
    private static func checkPrefix(_ bytes: [UInt8]) {
        _ = try? CBORReader.readPrefix(bytes.prefix(bytes.count / 2))
    }

    /// Authenticator data has what its flags announce.
    private static func checkFlags(_ data: AuthenticatorData) throws(FuzzFinding) {
        let flags = data.flags
        guard (data.attestedCredential != nil) == flags.contains(.attestedCredentialData),
            (data.extensions != nil) == flags.contains(.extensionData),
            flags.contains(.backupEligible) || !flags.contains(.backedUp),
            (data.attestedCredential?.credentialID.count ?? 0) <= AuthenticatorData.maximumCredentialIDLength,
            data.rpIDHash.count == 32
        else { throw FuzzFinding(description: "authenticator data \(data.bytes) does not match its flags") }
    }
}
