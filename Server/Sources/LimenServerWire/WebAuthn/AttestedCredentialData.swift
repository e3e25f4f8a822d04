import Foundation

/// The credential an authenticator created, as registration's authenticator data carries it (WebAuthn §6.5.1):
/// AAGUID, credential ID and public key.
public struct AttestedCredentialData: Sendable {
    /// The authenticator model's AAGUID (16 bytes; all zero for many passkey providers).
    public let aaguid: [UInt8]
    /// The credential ID (1 to 1,023 bytes), which assertions name the credential by.
    public let credentialID: [UInt8]
    /// The credential public key, as COSE_Key bytes: what a server stores to check later assertions.
    public let publicKeyBytes: [UInt8]
    /// The credential public key, read from ``publicKeyBytes``.
    public let publicKey: COSEKey

    /// Reads the attested credential data at the start of `bytes` and removes it from them.
    init(reading bytes: inout ArraySlice<UInt8>) throws(WebAuthnError) {
        guard bytes.count >= 18 else { throw .authenticatorDataTruncated }
        let start = bytes.startIndex
        aaguid = Array(bytes[start..<start + 16])
        let length = Int(bytes[start + 16]) << 8 | Int(bytes[start + 17])
        guard length <= AuthenticatorData.maximumCredentialIDLength else { throw .credentialIDTooLong }
        guard bytes.count >= 18 + length else { throw .authenticatorDataTruncated }
        credentialID = Array(bytes[start + 18..<start + 18 + length])
        bytes = bytes[(start + 18 + length)...]
        let key: CBORValue
        let keyLength: Int
        do {
            (key, keyLength) = try CBORReader.readPrefix(bytes)
        } catch {
            throw .malformedCBOR(error)
        }
        publicKeyBytes = Array(bytes.prefix(keyLength))
        bytes = bytes.dropFirst(keyLength)
        do {
            publicKey = try COSEKey(key)
        } catch {
            throw .invalidCredentialKey(error)
        }
    }
}
