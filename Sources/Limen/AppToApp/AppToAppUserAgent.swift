import Foundation

/// A ``UserAgent`` for sign-in through the provider's own app (GrabID's "Login with Grab app", FAPI 2.0's
/// app-to-app pattern): it opens the authorization URL as a universal link only, so that the provider's app, where
/// the person is already signed in, answers it; when no app claims the link it signs in through `fallback` (the web
/// authentication session) instead.
///
/// The provider's app sends the person back by opening the redirect URI, a universal link of this app, which reaches
/// the app like any other link: pass it to ``AuthClient/handle(url:)`` of the same `client`, which hands it to the
/// waiting sign-in. A URL that the redirect URI does not match is left to the app's other handling, and the sign-in
/// keeps waiting.
///
/// ```swift
/// let agent = AppToAppUserAgent(client: client, opener: UIApplicationUniversalLinkOpener(), fallback: webSession)
/// let user = try await client.signIn(using: agent)
/// // and, in the scene: .onOpenURL { url in Task { await client.handle(url: url) } }
/// ```
///
/// The sign-in waits until the redirect comes: cancelling the task that awaits it (a Cancel button, the person
/// coming back without an answer) ends it with ``LimenError/userCancelled``.
public struct AppToAppUserAgent: UserAgent {
    private let redirects: AwaitedRedirects
    private let opener: any UniversalLinkOpener
    private let fallback: any UserAgent

    /// Creates a user agent.
    /// - Parameters:
    ///   - client: The client whose ``AuthClient/handle(url:)`` receives the redirect (the one that signs in).
    ///   - opener: Opens the authorization URL in the app that claims it (LimenApple's
    ///     `UIApplicationUniversalLinkOpener` on iOS).
    ///   - fallback: Signs in when no app claims the link.
    public init(client: AuthClient, opener: some UniversalLinkOpener, fallback: some UserAgent) {
        self.redirects = client.awaitedRedirects
        self.opener = opener
        self.fallback = fallback
    }

    /// Opens `url` in the app that claims it and waits for the redirect that `callback` accepts; signs in through the
    /// fallback when no app claims it.
    /// - Throws: ``UserAgentError/cancelled`` when the task is cancelled while waiting, the fallback's errors when it
    ///   signs in.
    public func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
        switch await handOff(url, callback: callback) {
        case .success(.redirected(let redirect)): return redirect
        case .success(.notOpened): return try await fallback.authorize(url: url, callback: callback)
        case .failure(let error): throw error
        }
    }

    /// How handing the request to another app ended.
    private enum HandOff: Sendable {
        /// The other app sent the person back to this redirect.
        case redirected(URL)
        /// No app claims the link.
        case notOpened
    }

    /// Waits for the redirect (before the link is opened, so an answer as quick as the opening is not missed), then
    /// opens the link.
    private func handOff(_ url: URL, callback: CallbackMatcher) async -> Result<HandOff, UserAgentError> {
        let (redirects, opener) = (redirects, opener)
        return await PresentationAttempt<HandOff>.run { attempt in
            let waiter = redirects.expect(callback) { attempt.finish(.success(.redirected($0))) }
            guard attempt.attach(keeping: [], cancel: { redirects.forget(waiter) }) else {
                return redirects.forget(waiter)
            }
            Task { @MainActor in
                guard await !opener.openUniversalLink(url) else { return }
                redirects.forget(waiter)
                attempt.finish(.success(.notOpened))
            }
        }
    }
}
