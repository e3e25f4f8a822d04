import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// A browser that remembers the authorization URL it was asked to open, and is closed by the person.
private final class ClosedBrowser: UserAgent {
    private let opened = Locked<[URL]>([])

    /// The URLs it was asked to open.
    var urls: [URL] { opened.withLock { $0 } }

    func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
        opened.withLock { $0.append(url) }
        throw .cancelled
    }
}

@Suite("Sign-in hints on the authorization URL")
struct SignInHintTests {
    /// The authorization URL a browser sign-in with `options` opens.
    private static func authorizationURL(_ options: SignInOptions) async throws -> URLComponents {
        try await ProviderFixture.with { _ in
            .json(#"{"error":"invalid_grant"}"#, status: 400)
        } run: { fixture async throws in
            let browser = ClosedBrowser()
            await #expect(throws: LimenError.userCancelled) {
                try await fixture.client.signIn(using: browser, options: options)
            }
            let url = try #require(browser.urls.first)
            return try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        }
    }

    @Test("identityProvider is sent as idp_hint, which sends Limen Server's browser straight to that provider")
    func identityProvider() async throws {
        let url = try await Self.authorizationURL(SignInOptions(identityProvider: "partner"))
        #expect(url.queryItems?.filter { $0.name == "idp_hint" }.map(\.value) == ["partner"])
    }

    @Test("without identityProvider no idp_hint is sent")
    func noIdentityProvider() async throws {
        let url = try await Self.authorizationURL(SignInOptions())
        #expect(url.queryItems?.contains { $0.name == "idp_hint" } == false)
    }
}
