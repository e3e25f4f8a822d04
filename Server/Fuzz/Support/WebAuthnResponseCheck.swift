import Crypto
import LimenServerWire
import LimenWire

/// The `WebAuthnResponse` harness's check, also replayed over its seed corpus by `CorpusTests`: the input read as the
/// JSON a `PASSKEY` collector is answered with, as a `RegistrationResponseJSON` and as an `AuthenticationResponseJSON`,
/// and what they carry run through the ceremonies' checks against a fixed challenge, RP ID and key.
///
/// - Reading never crashes; what it refuses, it refuses with a typed error.
/// - A response read has a credential ID of 1 to 1,023 bytes that is its `id`, decoded.
/// - Nothing verifies: the input cannot know the check's challenge, so a registration or an assertion that passes is
///   a finding.
package enum WebAuthnResponseCheck {
    /// The challenge the checks expect: no input can know it. (Made on each call: a stored one would be reported by
    /// LeakSanitizer at exit.)
    private static var challenge: [UInt8] { Array(SHA256.hash(data: Array("the fuzz check's challenge".utf8))) }
    /// A P-256 public key whose private key was thrown away when it was made, as a COSE key.
    private static var key: CBORValue {
        let x = Array(hex: "681348a28caa7edb9659d724d3f0edef2b0159469a935daef42bb08125233431")
        let y = Array(hex: "485800d2cbba028c5abbcf9a9470d9f58d3ae5c2c9beeae04fef6e9124ac668e")
        return .map([
            (.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(-7)), (.negative(-1), .unsigned(1)),
            (.negative(-2), .bytes(x)), (.negative(-3), .bytes(y)),
        ])
    }

    /// Checks one input; throws what it finds.
    package static func check(_ input: some Sequence<UInt8>) throws(FuzzFinding) {
        let bytes = Array(input)
        guard let members = (try? JSONValue(parsing: bytes))?.objectValue else { return }
        if let registration = try? RegistrationResponseJSON(members) {
            try checkID(registration.credentialID, of: members)
            if let clientData = try? ClientData(json: registration.clientDataJSON),
                (try? RegistrationVerification.verify(
                    attestationObject: registration.attestationObject, clientData: clientData, rpID: "example.com",
                    requiresUserVerification: true)) != nil,
                (try? clientData.check(
                    type: .create, challenge: challenge, allowedOrigins: ["https://example.com"])) != nil
            {
                throw FuzzFinding(description: "a registration passed against a challenge it cannot know: \(bytes)")
            }
        }
        if let assertion = try? AuthenticationResponseJSON(members) {
            try checkID(assertion.credentialID, of: members)
            if let clientData = try? ClientData(json: assertion.clientDataJSON),
                let coseKey = try? COSEKey(key),
                (try? AssertionVerification.verify(
                    authenticatorData: assertion.authenticatorData, clientData: clientData,
                    signature: assertion.signature, credentialKey: coseKey, storedSignCount: 0, rpID: "example.com",
                    requiresUserVerification: false)) != nil
            {
                throw FuzzFinding(description: "an assertion verified under a key no input holds: \(bytes)")
            }
        }
    }

    /// The credential ID read is the `id` member decoded, of 1 to 1,023 bytes.
    private static func checkID(_ id: [UInt8], of members: [String: JSONValue]) throws(FuzzFinding) {
        guard (1...AuthenticatorData.maximumCredentialIDLength).contains(id.count),
            members["id"]?.stringValue.flatMap(Base64URL.decode).map(Array.init) == id
        else { throw FuzzFinding(description: "a credential ID of \(id.count) bytes that is not its id member") }
    }
}

extension [UInt8] {
    /// The bytes `hex` spells (two lowercase hex digits each); for the check's constants.
    fileprivate init(hex: String) {
        let digits = Array(hex.utf8).map { $0 >= 0x61 ? $0 - 0x61 + 10 : $0 - 0x30 }
        self = stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }
}
