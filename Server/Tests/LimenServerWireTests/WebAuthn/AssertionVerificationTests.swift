import Crypto
import Foundation
import LimenServerWire
import Testing

@Suite("Assertions: RP ID hash, user presence and verification, signature, signature counter")
struct AssertionVerificationTests {
    static let clientData = ClientDataTests.clientData()

    /// Verifies an assertion signed by `COSEKeyTests.p256` over authenticator data with `flags` and `signCount`.
    static func verify(
        flags: UInt8 = 0x05, signCount: UInt32 = 8, storedSignCount: UInt32 = 7, rpID: String = "example.com",
        requiresUserVerification: Bool = true, tamper: ([UInt8]) -> [UInt8] = { $0 }
    ) throws -> AuthenticatorData {
        let data = AuthenticatorDataTests.data(flags: flags, signCount: signCount)
        let parsed = try ClientData(json: clientData)
        let signature = Array(try COSEKeyTests.p256.signature(for: data + parsed.hash).derRepresentation)
        return try AssertionVerification.verify(
            authenticatorData: data, clientData: parsed, signature: tamper(signature),
            credentialKey: try COSEKey(COSEKeyTests.es256Key()), storedSignCount: storedSignCount, rpID: rpID,
            requiresUserVerification: requiresUserVerification)
    }

    @Test("a valid assertion returns its authenticator data")
    func valid() throws {
        let data = try Self.verify()
        #expect(data.signCount == 8)
        _ = try Self.verify(flags: 0x01, requiresUserVerification: false)
    }

    @Test("another relying party's assertion is refused")
    func rpID() {
        #expect(throws: WebAuthnError.rpIDHashMismatch) { try Self.verify(rpID: "evil.example") }
    }

    @Test("user presence is required, and user verification when asked for")
    func flags() {
        #expect(throws: WebAuthnError.userNotPresent) { try Self.verify(flags: 0x04) }
        #expect(throws: WebAuthnError.userNotVerified) { try Self.verify(flags: 0x01) }
    }

    @Test("a signature altered in any way is refused")
    func signature() {
        #expect(throws: WebAuthnError.signatureInvalid) {
            try Self.verify { signature in
                var changed = signature
                changed[changed.count - 1] ^= 0x01
                return changed
            }
        }
        #expect(throws: WebAuthnError.signatureInvalid) { try Self.verify { _ in [] } }
    }

    @Test("a counter that does not grow is refused as a possible clone, unless both are 0")
    func counter() throws {
        #expect(throws: WebAuthnError.signCountNotIncreased) { try Self.verify(signCount: 7, storedSignCount: 7) }
        #expect(throws: WebAuthnError.signCountNotIncreased) { try Self.verify(signCount: 3, storedSignCount: 7) }
        #expect(throws: WebAuthnError.signCountNotIncreased) { try Self.verify(signCount: 0, storedSignCount: 7) }
        _ = try Self.verify(signCount: 0, storedSignCount: 0)
        _ = try Self.verify(signCount: 1, storedSignCount: 0)
    }
}
