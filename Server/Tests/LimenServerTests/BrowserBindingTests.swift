import Crypto
import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Logging
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Sign-in requests and CSRF tokens are bound to the browser and the server")
struct BrowserBindingTests {
    /// An attacker's browser starts a sign-in request and returns its identifier, as a link to it would carry.
    private func attackersRequest(_ fixture: SignInFixture, client: String = "web") async throws -> String {
        var attacker = Browser()
        let form = try await attacker.send(fixture.client, SignInFixture.authorizeURI(client: client))
        #expect(form.body.contains("action=\"login\""))
        return try #require(form.hiddenField("request"))
    }

    @Test(
        "a sign-in request opened in another browser is refused with a page saying so",
        arguments: ["/login", "/signup"]
    )
    func requestOpenedElsewhere(_ path: String) async throws {
        let recorded = RecordedLines()
        let answeredID = Locked<String?>(nil)
        try await withSignIn(logger: recorded.logger) { fixture in
            let requestID = try await attackersRequest(fixture)
            var victim = Browser()
            let page = try await victim.send(fixture.client, "\(path)?request=\(requestID)")
            #expect(page.status == .forbidden && page.isHTML)
            #expect(page.body.contains("started in another browser"))
            #expect(page.hiddenField("csrf") == nil, "no form to fill in")
            answeredID.withLock { $0 = HTTPField.Name("X-Request-Id").flatMap { page.headers[$0] } }
        }
        let line = try #require(recorded.first(startingWith: "A pending sign-in request was opened in another browser"))
        let id = try #require(answeredID.withLock { $0 }, "the page carries its request id")
        #expect(line.metadata["hb.request.id"].map { "\($0)" } == id, "logged with that id")
    }

    @Test("signing in to another browser's request is refused: no session, no code")
    func signInToRequestOpenedElsewhere() async throws {
        try await withSignIn { fixture in
            let requestID = try await attackersRequest(fixture, client: "limen-cli")
            var victim = Browser()
            _ = try await victim.send(fixture.client, "/logout")  // any page: the victim's browser gets its CSRF cookie
            let purpose = CSRFToken.signInPurpose(requestID: requestID)
            let page = try await victim.send(
                fixture.client, "/login", method: .post,
                form: [
                    ("request", requestID), ("csrf", try #require(fixture.csrfToken(in: victim, for: purpose))),
                    ("email", SignInFixture.email), ("password", SignInFixture.password),
                ]
            )
            #expect(page.status == .forbidden && page.body.contains("started in another browser"))
            #expect(page.redirect == nil)
            #expect(victim.cookies[BrowserSessions.cookieName] == nil, "nobody is signed in")
        }
    }

    @Test("a device confirmation continues only in the browser that entered the code")
    func deviceRequestBound() async throws {
        try await withSignIn { fixture in
            let (_, userCode) = try await fixture.startDevice()
            var owner = Browser()
            let signIn = try await owner.enterUserCode(fixture.client, userCode)
            let requestID = try #require(signIn.hiddenField("request"))
            var other = Browser()
            let refused = try await other.send(fixture.client, "/login?request=\(requestID)")
            #expect(refused.status == .forbidden)
            let confirmation = try await owner.signIn(fixture.client, from: signIn)
            #expect(confirmation.body.contains("action=\"consent\""), "the browser that entered the code goes on")
        }
    }

    @Test("a CSRF cookie an attacker planted does not let them mint a token: the forged sign-out is refused")
    func plantedCSRFCookie() async throws {
        try await withSignIn { fixture in
            var victim = Browser()
            _ = try await victim.signIn(
                fixture.client, from: try await victim.send(fixture.client, SignInFixture.authorizeURI()))
            let session = try #require(victim.cookies[BrowserSessions.cookieName])
            // A sibling subdomain sets a CSRF cookie whose value it knows, and computes the token from it alone.
            let planted = "planted-by-the-attacker"
            victim.plant(CSRFToken.cookieName, planted)
            let minted = Base64URL.encode(
                Data(
                    HMAC<SHA256>.authenticationCode(
                        for: Data("logout".utf8), using: SymmetricKey(data: Data(planted.utf8)))))
            let page = try await victim.send(fixture.client, "/logout", method: .post, form: [("csrf", minted)])
            #expect(page.status == .forbidden)
            let stored = try await fixture.provider.store.browserSession(
                idHash: RandomIdentifier.hash(session), now: fixture.clock.now)
            #expect(stored != nil, "the session stays")
        }
    }

    @Test("a sign-out token the server showed the attacker for a CSRF secret they planted does not sign the victim out")
    func plantedCSRFCookieWithServersToken() async throws {
        try await withSignIn { fixture in
            var victim = Browser()
            _ = try await victim.signIn(
                fixture.client, from: try await victim.send(fixture.client, SignInFixture.authorizeURI()))
            var attacker = Browser()
            let form = try await attacker.send(fixture.client, "/logout")
            let secret = try #require(attacker.cookies[CSRFToken.cookieName])
            let token = try #require(form.hiddenField("csrf"))
            victim.plant(CSRFToken.cookieName, secret)
            let page = try await victim.send(fixture.client, "/logout", method: .post, form: [("csrf", token)])
            #expect(page.status == .forbidden)
            let session = try #require(victim.cookies[BrowserSessions.cookieName])
            let stored = try await fixture.provider.store.browserSession(
                idHash: RandomIdentifier.hash(session), now: fixture.clock.now)
            #expect(stored != nil, "the session stays")
        }
    }

    @Test("on an https issuer, cookies of the plain names (as a sibling domain could plant) are not read")
    func plainNamesIgnoredOnHTTPS() async throws {
        try await withSignIn(issuer: "https://id.example") { fixture in
            var owner = Browser()
            _ = try await owner.signIn(
                fixture.client, from: try await owner.send(fixture.client, SignInFixture.authorizeURI()))
            let session = try #require(owner.cookies["__Host-" + BrowserSessions.cookieName])
            var planted = Browser(cookies: [BrowserSessions.cookieName: session, CSRFToken.cookieName: "planted"])
            let page = try await planted.send(fixture.client, SignInFixture.authorizeURI())
            #expect(page.body.contains("action=\"login\""), "a plain-named session cookie signs nobody in")
            #expect(
                planted.lastSetCookies.contains { $0.hasPrefix("__Host-\(CSRFToken.cookieName)=") },
                "the planted CSRF cookie is not used: a fresh secret is set")
        }
    }
}
