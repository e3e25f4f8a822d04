import LimenOIDC

/// What answers a `PASSKEY` step: the platform's passkey API (`LimenApple`'s `PlatformPasskeyAuthenticator` on Apple
/// platforms), a security key, a password manager's API, or a software authenticator in tests. It takes WebAuthn's
/// JSON options, with the server's one-use challenge, and answers the credential's JSON — what a browser's
/// `PublicKeyCredential.toJSON()` gives — so any WebAuthn implementation fits without Limen knowing it.
///
/// ```swift
/// try await client.registerPasskey(name: "iPhone", using: authenticator)
/// let user = try await client.signInWithPasskey(using: authenticator)
/// ```
public protocol PasskeyAuthenticator: Sendable {
    /// Makes a new passkey: `PublicKeyCredentialCreationOptionsJSON` in, `RegistrationResponseJSON` out.
    func register(_ options: JSONValue) async throws(PasskeyError) -> JSONValue
    /// Signs with a passkey: `PublicKeyCredentialRequestOptionsJSON` in, `AuthenticationResponseJSON` out.
    func authenticate(_ options: JSONValue) async throws(PasskeyError) -> JSONValue
}

/// Why a passkey authenticator did not answer.
public enum PasskeyError: Error, Sendable, Equatable {
    /// The person dismissed the system's passkey sheet.
    case cancelled
    /// The device has no passkey the request allows.
    case noCredential
    /// The platform refused the request; its reason, for the log.
    case failed(String)

    /// A stable code: `passkey.cancelled`, `passkey.no_credential`, `passkey.failed`.
    public var code: String {
        switch self {
        case .cancelled: "passkey.cancelled"
        case .noCredential: "passkey.no_credential"
        case .failed: "passkey.failed"
        }
    }
}

extension ContinueNode {
    /// Runs `authenticator` on the step's `PASSKEY` in its mode and sets its value; `false` when the step has none.
    ///
    /// ```swift
    /// if case .continue(let step) = node, try await step.answerPasskey(with: authenticator) {
    ///     node = await step.next()
    /// }
    /// ```
    @discardableResult
    public func answerPasskey(with authenticator: some PasskeyAuthenticator) async throws(PasskeyError) -> Bool {
        guard let passkey = collectors.lazy.compactMap({ $0 as? PasskeyCollector }).first, let mode = passkey.mode
        else { return false }
        switch mode {
        case .register: passkey.value = try await authenticator.register(passkey.options)
        case .authenticate: passkey.value = try await authenticator.authenticate(passkey.options)
        }
        return true
    }
}
