import LimenServerWire
import Testing

@Suite("Registrations: RP ID hash, user presence and verification, allowed algorithms, attestation")
struct RegistrationVerificationTests {
    static let clientData = ClientDataTests.clientData(type: "webauthn.create")

    static func verify(
        flags: UInt8 = 0x45, rpID: String = "example.com", requiresUserVerification: Bool = true,
        allowedAlgorithms: Set<COSEAlgorithm> = [.es256, .edDSA, .rs256]
    ) throws -> AttestationObject {
        let authenticatorData = AuthenticatorDataTests.data(flags: flags, AuthenticatorDataTests.attested())
        return try RegistrationVerification.verify(
            attestationObject: AttestationObjectTests.object(authData: authenticatorData),
            clientData: try ClientData(json: clientData), rpID: rpID,
            requiresUserVerification: requiresUserVerification, allowedAlgorithms: allowedAlgorithms)
    }

    @Test("a valid registration returns its credential")
    func valid() throws {
        let attestation = try Self.verify()
        #expect(attestation.credential.credentialID == AuthenticatorDataTests.credentialID)
        _ = try Self.verify(flags: 0x41, requiresUserVerification: false)
    }

    @Test("another relying party's registration is refused")
    func rpID() {
        #expect(throws: WebAuthnError.rpIDHashMismatch) { try Self.verify(rpID: "example.org") }
    }

    @Test("user presence is required, and user verification when asked for")
    func flags() {
        #expect(throws: WebAuthnError.userNotPresent) { try Self.verify(flags: 0x44) }
        #expect(throws: WebAuthnError.userNotVerified) { try Self.verify(flags: 0x41) }
    }

    @Test("a credential key whose algorithm the server does not allow is refused")
    func algorithm() {
        #expect(throws: WebAuthnError.invalidCredentialKey(.algorithmNotAllowed(.es256))) {
            try Self.verify(allowedAlgorithms: [.edDSA])
        }
    }
}
