import Foundation

/// How the SDK signs the person in again when an account change answers RFC 9470's step-up challenge
/// (``AccountError/reauthenticationRequired(maxAge:)``): Limen Server asks for a sign-in at most
/// `account_change_max_age` old (5 minutes by default) before it links, unlinks or deletes.
///
/// Give one to ``AuthClient/deleteAccount(reauthenticating:)`` or ``AuthClient/unlink(_:reauthenticating:)``: on the
/// challenge the SDK signs in again this way, checks that the same person signed in, and retries the change once.
///
/// ```swift
/// try await client.deleteAccount(reauthenticating: .browser(webSession))
/// // or with the app's own sign-in form:
/// try await client.deleteAccount(reauthenticating: Reauthentication { client, _ throws(LimenError) in
///     _ = try await client.signIn(email: email, password: await askPassword())
/// })
/// ```
public struct Reauthentication: Sendable {
    /// Signs the person in again on `client`, within `maxAge` seconds when the provider said (`nil` otherwise).
    public let signIn: @Sendable (_ client: AuthClient, _ maxAge: Int?) async throws(LimenError) -> Void

    /// A way of signing in again: `signIn` gets the client and the `max_age` the provider asked for.
    public init(_ signIn: @escaping @Sendable (_ client: AuthClient, _ maxAge: Int?) async throws(LimenError) -> Void) {
        self.signIn = signIn
    }

    /// In the browser through `userAgent` (redirected to `redirectURI`, the configuration's by default), with
    /// `prompt=login` and the provider's `max_age` added to `options`, so that the provider asks for the credentials
    /// again whatever session its pages have.
    public static func browser(
        _ userAgent: some UserAgent,
        redirectURI: URL? = nil,
        options: SignInOptions = SignInOptions()
    ) -> Self {
        Self { client, maxAge throws(LimenError) in
            try await client.signIn(
                using: userAgent, redirectURI: redirectURI, options: options.reauthenticating(maxAge))
        }
    }
}

extension SignInOptions {
    /// These options asking the provider for a new sign-in: `prompt=login`, and `max_age` (`0` when not given).
    func reauthenticating(_ maxAge: Int?) -> SignInOptions {
        var options = self
        if !options.prompt.contains("login") { options.prompt.append("login") }
        options.maxAge = maxAge ?? 0
        return options
    }
}

extension AuthClient {
    /// `change`'s result; when it answers the step-up challenge and `reauthentication` is given, the person signs in
    /// again that way and `change` runs once more. A sign-in as someone else changes nothing:
    /// ``AccountError/reauthenticatedAsAnotherUser``.
    func changingAccount<Result: Sendable>(
        reauthenticating reauthentication: Reauthentication?,
        _ change: () async throws(LimenError) -> Result
    ) async throws(LimenError) -> Result {
        do {
            return try await change()
        } catch .account(.reauthenticationRequired(let maxAge)) {
            guard let reauthentication else { throw .account(.reauthenticationRequired(maxAge: maxAge)) }
            let before = state.user.id
            try await reauthentication.signIn(self, maxAge)
            guard state.user.id == before else { throw .account(.reauthenticatedAsAnotherUser) }
            return try await change()
        }
    }
}
