import Foundation
import LimenTestSupport
import Testing

@testable import Limen

/// ``AppToAppUserAgent`` driven as the apps would drive it: the opener plays the system and the host app, and the
/// redirect comes back through the requesting client's ``AuthClient/handle(url:)``.
@Suite("App-to-app user agent", .timeLimit(.minutes(1)))
struct AppToAppUserAgentTests {
    static let authorizationURL = URL(string: "https://id.example.com/authorize?client_id=app&state=s1")!
    static let redirectURI = URL(string: "https://app.example.com/cb")!
    static let redirect = URL(string: "https://app.example.com/cb?code=c1&state=s1&iss=https%3A%2F%2Fid.example.com")!
    static let callback = CallbackMatcher(redirectURI: redirectURI)

    /// Plays the system opening a universal link: `open` runs as the other app would, then answers whether one did.
    struct Opener: UniversalLinkOpener {
        let open: @Sendable (URL) async -> Bool

        func openUniversalLink(_ url: URL) async -> Bool { await open(url) }
    }

    /// A fallback that records what it was asked and answers `result`.
    final class Fallback: UserAgent {
        let asked = Locked<[URL]>([])
        let result: Result<URL, UserAgentError>

        init(_ result: Result<URL, UserAgentError>) { self.result = result }

        func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
            asked.withLock { $0.append(url) }
            return try result.get()
        }
    }

    func client() -> AuthClient {
        AuthClient(
            configuration: Configuration(
                issuer: URL(string: "https://id.example.com")!, clientID: "app", redirectURI: Self.redirectURI,
                store: MemoryStore()))
    }

    @Test("the link opens the other app, and the redirect that app sends to handle(url:) is the sign-in's answer")
    func opensAndWaits() async throws {
        let client = client()
        let opened = Locked<[URL]>([])
        let fallback = Fallback(.failure(.presentationFailed("not expected")))
        let agent = AppToAppUserAgent(
            client: client,
            opener: Opener { url in
                opened.withLock { $0.append(url) }
                Task { _ = await client.handle(url: Self.redirect) }
                return true
            },
            fallback: fallback)
        let answer = try await agent.authorize(url: Self.authorizationURL, callback: Self.callback)
        #expect(answer == Self.redirect)
        #expect(opened.withLock { $0 } == [Self.authorizationURL])
        #expect(fallback.asked.withLock { $0 }.isEmpty)
    }

    @Test("a redirect delivered while the link is still opening is not missed")
    func redirectBeforeOpenReturns() async throws {
        let client = client()
        let agent = AppToAppUserAgent(
            client: client,
            opener: Opener { _ in
                _ = await client.handle(url: Self.redirect)
                return true
            },
            fallback: Fallback(.failure(.presentationFailed("not expected"))))
        #expect(try await agent.authorize(url: Self.authorizationURL, callback: Self.callback) == Self.redirect)
    }

    @Test("when no app claims the link, the fallback signs in with the same URL and its answer is returned")
    func fallsBack() async throws {
        let client = client()
        let fallback = Fallback(.success(Self.redirect))
        let agent = AppToAppUserAgent(client: client, opener: Opener { _ in false }, fallback: fallback)
        #expect(try await agent.authorize(url: Self.authorizationURL, callback: Self.callback) == Self.redirect)
        #expect(fallback.asked.withLock { $0 } == [Self.authorizationURL])
        #expect(await !client.awaitedRedirects.deliver(Self.redirect), "the fallen-back attempt waits no more")
    }

    @Test("the fallback's failure is the sign-in's")
    func fallbackFails() async {
        let agent = AppToAppUserAgent(
            client: client(), opener: Opener { _ in false }, fallback: Fallback(.failure(.cancelled)))
        await #expect(throws: UserAgentError.cancelled) {
            try await agent.authorize(url: Self.authorizationURL, callback: Self.callback)
        }
    }

    @Test(
        "a URL the redirect URI does not match is left to the app's other handling, and the sign-in keeps waiting",
        arguments: [
            "https://app.example.com/other?code=c1&state=s1", "https://evil.example.com/cb?code=c1&state=s1",
            "http://app.example.com/cb?code=c1&state=s1", "https://app.example.com:8443/cb?code=c1&state=s1",
        ])
    func mismatchIsIgnored(other: String) async throws {
        let client = client()
        let taken = Locked<Bool?>(nil)
        let agent = AppToAppUserAgent(
            client: client,
            opener: Opener { _ in
                let otherTaken = await client.awaitedRedirects.deliver(URL(string: other)!)
                taken.withLock { $0 = otherTaken }
                _ = await client.handle(url: Self.redirect)
                return true
            },
            fallback: Fallback(.failure(.presentationFailed("not expected"))))
        #expect(try await agent.authorize(url: Self.authorizationURL, callback: Self.callback) == Self.redirect)
        #expect(taken.withLock { $0 } == false)
    }

    @Test("cancelling the sign-in while it waits ends it with cancelled, and a later redirect finds nobody waiting")
    func cancellation() async throws {
        let client = client()
        let opened = Gate()
        let agent = AppToAppUserAgent(
            client: client,
            opener: Opener { _ in
                await opened.open()
                return true
            },
            fallback: Fallback(.failure(.presentationFailed("not expected"))))
        let signIn = Task { try await agent.authorize(url: Self.authorizationURL, callback: Self.callback) }
        await opened.wait()
        signIn.cancel()
        await #expect(throws: UserAgentError.cancelled) { try await signIn.value }
        #expect(await !client.awaitedRedirects.deliver(Self.redirect))
        #expect(await client.handle(url: Self.redirect) == nil)
    }

    @Test("a task cancelled before the sign-in starts opens nothing")
    func cancelledBeforeStart() async {
        let opened = Locked(false)
        let agent = AppToAppUserAgent(
            client: client(),
            opener: Opener { _ in
                opened.withLock { $0 = true }
                return true
            },
            fallback: Fallback(.failure(.presentationFailed("not expected"))))
        let signIn = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await agent.authorize(url: Self.authorizationURL, callback: Self.callback)
        }
        await #expect(throws: UserAgentError.cancelled) { try await signIn.value }
        #expect(!opened.withLock { $0 })
    }

    @Test("of two sign-ins waiting, each takes only the redirect its redirect URI matches")
    func twoWaiters() async throws {
        let client = client()
        let other = CallbackMatcher(redirectURI: URL(string: "https://app.example.com/second")!)
        let first = Locked<[URL]>([])
        let second = Locked<[URL]>([])
        await MainActor.run {
            _ = client.awaitedRedirects.expect(Self.callback) { url in first.withLock { $0.append(url) } }
            _ = client.awaitedRedirects.expect(other) { url in second.withLock { $0.append(url) } }
        }
        let secondRedirect = URL(string: "https://app.example.com/second?code=c2")!
        #expect(await client.awaitedRedirects.deliver(secondRedirect))
        #expect(await client.awaitedRedirects.deliver(Self.redirect))
        #expect(await !client.awaitedRedirects.deliver(Self.redirect), "each waiter takes one redirect")
        #expect(first.withLock { $0 } == [Self.redirect])
        #expect(second.withLock { $0 } == [secondRedirect])
    }
}
