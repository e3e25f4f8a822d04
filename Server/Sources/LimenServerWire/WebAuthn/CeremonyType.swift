/// The WebAuthn ceremony a client data belongs to, as its `type` member names it.
public enum CeremonyType: String, Sendable, Hashable {
    /// Registration: `navigator.credentials.create()`.
    case create = "webauthn.create"
    /// Sign-in: `navigator.credentials.get()`.
    case get = "webauthn.get"
}
