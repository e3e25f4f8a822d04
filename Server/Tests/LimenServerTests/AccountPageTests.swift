import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The hosted account page: /account")
struct AccountPageTests {
    /// A browser signed in as the fixture's user, with the profile schema stored, on its account page.
    static func signedIn(_ fixture: SignInFixture) async throws -> (Browser, Page) {
        try await fixture.provider.installProfileSchema()
        var browser = Browser()
        _ = try await browser.signIn(
            fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
        let page = try await browser.send(fixture.client, "/account")
        return (browser, page)
    }

    @Test(
        "without a session the page says so; with one it shows the editable fields, the others as text, and encrypted ones as encrypted on the device"
    )
    func shows() async throws {
        try await withSignIn { fixture in
            var anonymous = Browser()
            let signedOut = try await anonymous.send(fixture.client, "/account")
            #expect(signedOut.status == .unauthorized)
            #expect(signedOut.body.contains("Not signed in"))

            let user = fixture.user.id
            #expect(
                try await fixture.provider.store.writeProfile(
                    userID: user, data: ["plan": .string("pro"), "diagnosis": .string(SampleJWE.valid)],
                    expectedRevision: 0, now: fixture.clock.now) == 1)
            let (_, page) = try await Self.signedIn(fixture)
            #expect(page.status == .ok)
            #expect(page.body.contains("Signed in as \(SignInFixture.email)"))
            #expect(page.body.contains(#"name="field.nickname""#))
            #expect(page.body.contains(#"<select id="field-newsletter" name="field.newsletter">"#))
            #expect(!page.body.contains(#"name="field.plan""#), "a field the user may not edit is not in the form")
            #expect(page.body.contains("<strong>plan</strong> pro"))
            #expect(page.body.contains("<strong>diagnosis</strong>: encrypted on your device</p>"))
            #expect(page.body.contains("<strong>locale</strong>: encrypted on your device (no value yet)</p>"))
            #expect(!page.body.contains(SampleJWE.valid), "the ciphertext is never on the page")
            #expect(!page.body.contains("field.locale"), "an encrypted field is never a form field")
            #expect(page.hiddenField("revision") == "1")
        }
    }

    @Test("saving the form writes the profile as PATCH would: checked, an empty field removed, a stale page refused")
    func saves() async throws {
        try await withSignIn { fixture in
            var (browser, page) = try await Self.signedIn(fixture)
            let saved = try await browser.submit(
                fixture.client, page, to: "/account",
                [
                    ("revision", "0"), ("field.nickname", "ada"), ("field.age", "36"), ("field.newsletter", "true"),
                    ("field.birthdate", "1815-12-10"), ("field.given_name", ""),
                ])
            #expect(saved.status == .ok)
            #expect(saved.body.contains("Saved."))
            let stored = try await fixture.provider.store.profile(userID: fixture.user.id)
            #expect(
                stored?.data
                    == [
                        "nickname": .string("ada"), "age": .number(36), "newsletter": .bool(true),
                        "birthdate": .string("1815-12-10"),
                    ])

            let refused = try await browser.submit(
                fixture.client, saved, to: "/account", [("revision", "1"), ("field.nickname", "Not Valid")])
            #expect(refused.status == .badRequest)
            #expect(refused.alert?.hasPrefix("nickname: ") == true)
            let number = try await browser.submit(
                fixture.client, saved, to: "/account", [("revision", "1"), ("field.age", "old")])
            #expect(number.alert == "age: must be a number")

            let stale = try await browser.submit(
                fixture.client, page, to: "/account", [("revision", "0"), ("field.nickname", "grace")])
            #expect(stale.status == .preconditionFailed)
            #expect(stale.alert?.contains("changed elsewhere") == true)
            #expect(
                try await fixture.provider.store.profile(userID: fixture.user.id)?.data["nickname"] == .string("ada"))

            let forged = try await browser.send(
                fixture.client, "/account", method: .post, form: [("csrf", "x"), ("field.nickname", "eve")])
            #expect(forged.status == .forbidden)
        }
    }

    @Test("sign out everywhere ends every session and grant of the account, here and elsewhere")
    func signOutEverywhere() async throws {
        try await withSignIn { fixture in
            var (browser, page) = try await Self.signedIn(fixture)
            var other = Browser()
            let signedIn = try await other.signIn(
                fixture.client, from: try await other.send(fixture.client, SignInFixture.authorizeURI()))
            let otherCookie = try #require(other.cookies[BrowserSessions.cookieName])
            let code = try #require(signedIn.redirect?.query["code"])
            let exchange = FormEncoding.encode([
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SignInFixture.cliRedirect),
                ("client_id", "limen-cli"), ("code_verifier", PKCE.fixture.verifier),
            ])
            let accessToken = try await fixture.client.execute(
                uri: "/token", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: exchange)
            ) { response in
                try JSONDecoder().decode(TokenResponse.self, from: Data(response.body.readableBytesView)).accessToken
            }
            let before = try await fixture.client.execute(
                uri: "/userinfo", method: .get, headers: [.authorization: "Bearer \(accessToken)"]
            ) { $0.status }
            #expect(before == .ok)
            let done = try await browser.submit(
                fixture.client, page, to: "/account", [("intent", "sign_out_everywhere")])
            #expect(done.status == .ok)
            #expect(done.body.contains("Signed out everywhere"))
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)
            let otherSession = try await fixture.provider.store.browserSession(
                idHash: RandomIdentifier.hash(otherCookie), now: fixture.clock.now)
            #expect(otherSession == nil, "the other browser's session ended too")
            let again = try await other.send(fixture.client, "/account")
            #expect(again.status == .unauthorized)
            let after = try await fixture.client.execute(
                uri: "/userinfo", method: .get, headers: [.authorization: "Bearer \(accessToken)"]
            ) { $0.status }
            #expect(after == .unauthorized, "the grant and its access token ended too")
            let ended = try await fixture.provider.store.securityEvents(
                SecurityEventFilter(type: SecurityEventType.sessionEnded.rawValue), limit: 10)
            #expect(ended.map(\.details) == [#"{"reason":"signed_out_everywhere"}"#], "one event for them all")
        }
    }
}
