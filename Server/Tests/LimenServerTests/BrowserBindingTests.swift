import Foundation
import HTTPTypes
import Testing

@testable import LimenServer

@Suite("Sign-in requests are bound to the browser that started them")
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
        try await withSignIn { fixture in
            let requestID = try await attackersRequest(fixture)
            var victim = Browser()
            let page = try await victim.send(fixture.client, "\(path)?request=\(requestID)")
            #expect(page.status == .forbidden && page.isHTML)
            #expect(page.body.contains("started in another browser"))
            #expect(page.hiddenField("csrf") == nil, "no form to fill in")
        }
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
}
