/// What the person signed in with — an email address and password they typed, or a Sign in with Apple credential —
/// kept in memory by the SDK when a sign-in needs a decision (``AccountError/migrationRequired(_:)``), so that the app
/// answers with ``AuthClient/login(with:allowMigration:)`` and nobody types or taps anything again (RxFireAuth's
/// `LoginCredentials`). Never stored, never logged: its description shows the address only.
///
/// ```swift
/// } catch .account(.migrationRequired(let credentials)) {
///     let keep = await askWhetherToKeepGuestData()
///     let descriptor = try await client.login(with: credentials, allowMigration: keep)
/// }
/// ```
public struct LoginCredentials: Sendable, Equatable {
    /// The email address: the one typed, or the one Apple shared (`nil` when it shared none, as after the first
    /// sign-in).
    public let email: String?
    /// How the person proved who they are.
    public let provider: LoginProvider
    /// The proof; read only by the SDK.
    let proof: Proof

    /// The secret part of credentials.
    enum Proof: Sendable, Equatable {
        /// A password for ``LoginCredentials/email``.
        case password(String)
        /// Apple's credential and the raw nonce of its request.
        case apple(AppleIDCredential, nonce: String)
    }

    /// Credentials for an email and password sign-in.
    public init(email: String, password: String) {
        self.email = email
        provider = .password
        proof = .password(password)
    }

    /// Credentials for a Sign in with Apple sign-in: Apple's credential and the nonce its request was made with.
    public init(apple credential: AppleIDCredential, nonce: AppleSignInNonce) {
        email = credential.email
        provider = .apple
        proof = .apple(credential, nonce: nonce.raw)
    }

    /// The Limen Server flow these credentials sign in through, and its first step's values.
    var flow: (name: String, values: [String: String?]) {
        switch proof {
        case .password(let password): ("sign-in", ["email": email, "password": password])
        case .apple(let credential, let nonce):
            ("apple", ["identity_token": credential.identityToken, "nonce": nonce, "name": credential.fullName])
        }
    }
}

/// How a person proved who they are.
public enum LoginProvider: String, Sendable, Equatable {
    /// An email address and password.
    case password
    /// Sign in with Apple.
    case apple
}

extension LoginCredentials: CustomStringConvertible, CustomDebugStringConvertible {
    /// The provider and address; the password, token and nonce are redacted.
    public var description: String {
        "LoginCredentials(provider: \(provider.rawValue), email: \(email ?? "-"), proof: <redacted>)"
    }
    /// The same as ``description``: the secret never shows.
    public var debugDescription: String { description }
}
