import Foundation
import LimenOIDC

/// What a platform's passkey request answered, in parts: the Apple adapters (LimenApple's
/// `PlatformPasskeyAuthenticator`, LimenUI's `AuthorizationControllerPasskeys`) map the system's credential or error
/// onto it, and ``credential(for:)`` decides the rest on every platform — the WebAuthn JSON, or why there is none.
///
/// ```swift
/// let answer = PasskeyAnswer.failed(cancelled: true, reason: "The operation was cancelled.")
/// #expect(answer.credential(for: .authenticate) == .failure(.cancelled))
/// ```
public enum PasskeyAnswer: Sendable, Equatable {
    /// A new passkey; `attestationObject` is `nil` when the system gave none.
    case registration(credentialID: Data, clientDataJSON: Data, attestationObject: Data?)
    /// A passkey's signature; `authenticatorData` and `signature` are `nil` when the system gave none.
    case assertion(
        credentialID: Data, clientDataJSON: Data, authenticatorData: Data?, signature: Data?, userHandle: Data?)
    /// A credential that is not a passkey's (a password, an Apple ID, a security key's).
    case otherCredential
    /// No credential: the device has none the request allows (at once, when asked not to wait for one).
    case noCredential
    /// No credential: the person closed the sheet (`cancelled`), or the system refused for `reason`.
    case failed(cancelled: Bool, reason: String)

    /// The credential's JSON for a ceremony of `mode` (`RegistrationResponseJSON` or `AuthenticationResponseJSON`), or
    /// ``PasskeyError/cancelled`` or ``PasskeyError/failed(_:)`` saying what was missing or wrong.
    public func credential(for mode: PasskeyCollector.Mode) -> Result<JSONValue, PasskeyError> {
        switch (self, mode) {
        case (.failed(true, _), _):
            return .failure(.cancelled)
        case (.noCredential, _):
            return .failure(.noCredential)
        case (.failed(false, let reason), _):
            return .failure(.failed(reason))
        case (.registration(let id, let clientData, let attestation?), .register):
            return .success(
                PasskeyCeremony.registrationJSON(
                    credentialID: id, clientDataJSON: clientData, attestationObject: attestation))
        case (.assertion(let id, let clientData, let authenticatorData?, let signature?, let userHandle), .authenticate):
            return .success(
                PasskeyCeremony.assertionJSON(
                    credentialID: id, clientDataJSON: clientData, authenticatorData: authenticatorData,
                    signature: signature, userHandle: userHandle))
        case (.registration(_, _, nil), .register), (.assertion, .authenticate):
            return .failure(.failed("the system's passkey credential is incomplete"))
        case (.registration, .authenticate), (.assertion, .register), (.otherCredential, _):
            return .failure(.failed("the system gave no passkey credential for this request"))
        }
    }
}
