import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Signing in again for the account page through an upstream provider (the stand-in issuer), for a person whose only
/// way in is that provider.
extension UpstreamFixture {
    /// The browser session `browser` holds now.
    func session(of browser: Browser) async throws -> BrowserSessionRecord? {
        let clock = fixture.clock
        return try await BrowserSessions(store: fixture.provider.store, now: { clock.now })
            .current(cookieValue: browser.cookies[BrowserSessions.cookieName])
    }

    /// Starts signing in again from `/account/sign-in` in `browser` and presses "Continue with Stand-in ID"; the
    /// redirect upstream.
    func startAgain(_ browser: inout Browser) async throws -> Page {
        let toSignIn = try await browser.send(fixture.client, "/account/sign-in?return_to=%2Faccount")
        let location = try #require(toSignIn.headers[.location])
        let signIn = try await browser.send(fixture.client, String(location.dropFirst(2)))
        #expect(signIn.body.contains("Continue with Stand-in ID"))
        return try await browser.submit(fixture.client, signIn, to: "/federation/\(Self.providerID)/start", [])
    }
}

@Suite("Signing in again for the account page through the person's upstream provider")
struct AccountUpstreamReauthenticationTests {
    /// A person whose only way in is the stand-in, signed in in a browser a minute ago (the stand-in's tokens are
    /// made at the clock's start, valid five minutes); the browser and their user ID.
    private static func signedInAMinuteAgo(_ upstream: UpstreamFixture) async throws -> (Browser, String) {
        var browser = Browser()
        upstream.standIn.upstream.next { ($0.subject, $0.authTime) = ("upstream-only", upstream.fixture.clock.now) }
        let subject = try #require(try await upstream.signIn(&browser).subject)
        #expect(try await upstream.fixture.provider.store.identities(userID: subject).map(\.kind) == [upstream.kind])
        upstream.fixture.clock.advance(by: 60)
        return (browser, subject)
    }

    @Test("a fresh sign-in at the provider (prompt=login, max_age=0, auth_time now) renews the session")
    func freshSignInRenews() async throws {
        try await UpstreamFixture.with { upstream in
            var (browser, subject) = try await Self.signedInAMinuteAgo(upstream)
            let toProvider = try await upstream.startAgain(&browser)
            #expect(toProvider.status == .found)
            upstream.standIn.upstream.next { $0.authTime = upstream.fixture.clock.now }
            let callback = try await upstream.signInUpstream(toProvider)
            let asked = try #require(upstream.standIn.upstream.authorizations.withLock { $0.last })
            #expect(asked["prompt"] == "login" && asked["max_age"] == "0", "the provider is asked for a fresh sign-in")
            let back = try await browser.send(upstream.fixture.client, callback)
            #expect(back.status == .found && back.headers[.location] == "../../account")
            let renewed = try #require(try await upstream.session(of: browser))
            #expect(renewed.subject == subject && renewed.authTime == upstream.fixture.clock.now)
            #expect(try await browser.send(upstream.fixture.client, callback).status != .found, "used once")
        }
    }

    @Test(
        "refused, the session kept: the provider's old session, no auth_time, another upstream identity",
        arguments: [
            ("upstream-only", -600.0 as TimeInterval?), ("upstream-only", nil), ("someone-else", 0.0 as TimeInterval?),
        ])
    func refusals(subject: String, authTimeOffset: TimeInterval?) async throws {
        try await UpstreamFixture.with { upstream in
            var (browser, _) = try await Self.signedInAMinuteAgo(upstream)
            let before = try #require(try await upstream.session(of: browser))
            let toProvider = try await upstream.startAgain(&browser)
            let now = upstream.fixture.clock.now
            upstream.standIn.upstream.next {
                ($0.subject, $0.authTime) = (subject, authTimeOffset.map { now.addingTimeInterval($0) })
            }
            let answer = try await browser.send(upstream.fixture.client, try await upstream.signInUpstream(toProvider))
            #expect(answer.status == .badRequest || answer.status == .forbidden)
            #expect(answer.headers[.location] == nil)
            let after = try #require(try await upstream.session(of: browser))
            #expect(after.idHash == before.idHash && after.authTime == before.authTime, "the session is not renewed")
            #expect(
                try await upstream.fixture.provider.store.user(identityKind: upstream.kind, subject: "someone-else")
                    == nil, "no new account")
        }
    }
}
