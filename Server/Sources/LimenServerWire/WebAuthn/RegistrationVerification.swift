/// The checks of a WebAuthn registration that need no storage (WebAuthn §7.1 steps 12–21): the attestation object is
/// for this relying party, the user was present (and verified when required), the credential key's algorithm is one
/// the server allows, and the attestation statement verifies.
///
/// The client data is checked first, with ``ClientData/check(type:challenge:allowedOrigins:allowsCrossOrigin:)``.
///
/// ```swift
/// let clientData = try ClientData(json: clientDataJSON)
/// try clientData.check(type: .create, challenge: issued, allowedOrigins: ["https://example.com"])
/// let credential = try RegistrationVerification.verify(
///     attestationObject: attestationObjectBytes, clientData: clientData, rpID: "example.com",
///     requiresUserVerification: true)
/// // store credential.credentialID, credential.publicKeyBytes, and the sign counter
/// ```
public enum RegistrationVerification {
    /// Verifies a registration and returns its attestation object (the credential, the authenticator data's counter
    /// and backup flags).
    ///
    /// - Parameters:
    ///   - attestationObject: the attestation object, as received.
    ///   - clientData: its client data, already checked against the ceremony.
    ///   - rpID: the relying party's ID (`example.com`).
    ///   - requiresUserVerification: whether the UV flag must be set.
    ///   - allowedAlgorithms: the credential key algorithms the server accepts.
    public static func verify(
        attestationObject: [UInt8],
        clientData: ClientData,
        rpID: String,
        requiresUserVerification: Bool,
        allowedAlgorithms: Set<COSEAlgorithm> = Set(COSEAlgorithm.allCases)
    ) throws(WebAuthnError) -> AttestationObject {
        let attestation = try AttestationObject(bytes: attestationObject)
        try attestation.authenticatorData.check(rpID: rpID, requiresUserVerification: requiresUserVerification)
        let algorithm = attestation.credential.publicKey.algorithm
        guard allowedAlgorithms.contains(algorithm) else {
            throw .invalidCredentialKey(.algorithmNotAllowed(algorithm))
        }
        try attestation.verify(clientDataHash: clientData.hash)
        return attestation
    }
}
