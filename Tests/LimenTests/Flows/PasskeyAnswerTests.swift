import Foundation
import Limen
import LimenOIDC
import Testing

@Suite("PasskeyAnswer: what a platform's passkey request answered, as WebAuthn JSON or a typed refusal")
struct PasskeyAnswerTests {
    static let id = Data([1, 2, 3])
    static let clientData = Data("{}".utf8)
    static let attestation = Data([0xA0])
    static let authenticatorData = Data([9, 9])
    static let signature = Data([7])

    @Test("a registration answers RegistrationResponseJSON, an assertion AuthenticationResponseJSON")
    func credentials() throws {
        let registration = PasskeyAnswer.registration(
            credentialID: Self.id, clientDataJSON: Self.clientData, attestationObject: Self.attestation)
        let expected = PasskeyCeremony.registrationJSON(
            credentialID: Self.id, clientDataJSON: Self.clientData, attestationObject: Self.attestation)
        #expect(try registration.credential(for: .register).get() == expected)
        let assertion = PasskeyAnswer.assertion(
            credentialID: Self.id, clientDataJSON: Self.clientData, authenticatorData: Self.authenticatorData,
            signature: Self.signature, userHandle: Data([5]))
        let json = try assertion.credential(for: .authenticate).get()
        #expect(json.objectValue?["id"]?.stringValue == "AQID")
        #expect(json.objectValue?["response"]?.objectValue?["userHandle"]?.stringValue == "BQ")
        #expect(json.objectValue?["response"]?.objectValue?["signature"]?.stringValue == "Bw")
    }

    /// The refusals: what the platform answered, the ceremony asked for, and the error code expected.
    static let refusals: [(PasskeyAnswer, PasskeyCollector.Mode, String)] = [
        (.failed(cancelled: true, reason: "closed"), .authenticate, "passkey.cancelled"),
        (.failed(cancelled: false, reason: "no network"), .register, "passkey.failed"),
        (.noCredential, .authenticate, "passkey.no_credential"),
        (
            .registration(credentialID: id, clientDataJSON: clientData, attestationObject: nil), .register,
            "passkey.failed"
        ),
        (
            .assertion(
                credentialID: id, clientDataJSON: clientData, authenticatorData: nil, signature: signature,
                userHandle: nil), .authenticate, "passkey.failed"
        ),
        (
            .registration(credentialID: id, clientDataJSON: clientData, attestationObject: attestation), .authenticate,
            "passkey.failed"
        ),
        (.otherCredential, .register, "passkey.failed"),
    ]

    @Test(
        "refused: a cancelled sheet, a system error, no credential, an incomplete one, the other ceremony's, not a passkey",
        arguments: 0..<7)
    func refused(index: Int) {
        let (answer, mode, code) = Self.refusals[index]
        guard case .failure(let error) = answer.credential(for: mode) else {
            Issue.record("accepted \(answer)")
            return
        }
        #expect(error.code == code)
    }

    @Test("the system's reason is kept for the log")
    func reasonKept() throws {
        let answer = PasskeyAnswer.failed(cancelled: false, reason: "no network")
        #expect(throws: PasskeyError.failed("no network")) { try answer.credential(for: .authenticate).get() }
    }
}
