/// The checks of a WebAuthn assertion that need no storage (WebAuthn §7.2 steps 15–22): the authenticator data is for
/// this relying party, the user was present (and verified when required), the stored credential key signed it, and the
/// signature counter moved forward.
///
/// The client data is checked first, with ``ClientData/check(type:challenge:allowedOrigins:allowsCrossOrigin:)``.
///
/// ```swift
/// let clientData = try ClientData(json: clientDataJSON)
/// try clientData.check(type: .get, challenge: issued, allowedOrigins: ["https://example.com"])
/// let data = try AssertionVerification.verify(
///     authenticatorData: authenticatorDataBytes, clientData: clientData, signature: signature,
///     credentialKey: storedKey, storedSignCount: stored, rpID: "example.com", requiresUserVerification: true)
/// // store data.signCount, data.flags.contains(.backedUp)
/// ```
public enum AssertionVerification {
    /// Verifies an assertion and returns its authenticator data (the new signature counter, the backup flags).
    ///
    /// - Parameters:
    ///   - authenticatorData: the assertion's authenticator data, as received.
    ///   - clientData: its client data, already checked against the ceremony.
    ///   - signature: the assertion's signature.
    ///   - credentialKey: the credential's public key, as stored at registration.
    ///   - storedSignCount: the signature counter stored for the credential.
    ///   - rpID: the relying party's ID (`example.com`).
    ///   - requiresUserVerification: whether the UV flag must be set.
    public static func verify(
        authenticatorData: [UInt8],
        clientData: ClientData,
        signature: [UInt8],
        credentialKey: COSEKey,
        storedSignCount: UInt32,
        rpID: String,
        requiresUserVerification: Bool
    ) throws(WebAuthnError) -> AuthenticatorData {
        let data = try AuthenticatorData(bytes: authenticatorData)
        try data.check(rpID: rpID, requiresUserVerification: requiresUserVerification)
        guard credentialKey.isValidSignature(signature, for: authenticatorData + clientData.hash) else {
            throw .signatureInvalid
        }
        guard data.signCount > storedSignCount || (data.signCount == 0 && storedSignCount == 0) else {
            throw .signCountNotIncreased
        }
        return data
    }
}
