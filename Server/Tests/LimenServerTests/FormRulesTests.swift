import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Issue 9 §1: one form reader for every route, with RFC 6749's rules (§3.1, §3.2) everywhere. The hosted pages used to
/// read a repeated field as absent and keep an empty one; now a repeat is refused with a page naming it, and an empty
/// field is absent, as at the token endpoint.
@Suite("One form rule for every route")
struct FormRulesTests {
    @Test("a page refuses a repeated field with a page naming it, instead of reading it as absent")
    func pageRefusesRepeat() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let refused = try await browser.submit(
                fixture.client, form, to: "/login",
                [("email", SignInFixture.email), ("email", "eve@example.com"), ("password", SignInFixture.password)])
            #expect(refused.status == .badRequest)
            #expect(refused.body.contains("email is repeated"))
            #expect(!refused.body.contains("action=\"login\""), "a refusal, not the sign-in form again")
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)

            let query = "/login?request=\(try #require(form.hiddenField("request")))"
            let repeatedQuery = try await browser.send(fixture.client, query + "&request=other")
            #expect(repeatedQuery.status == .badRequest)
            #expect(repeatedQuery.body.contains("request is repeated"))
        }
    }

    @Test("a page reads an empty field as absent: `confirmed=` at /end_session asks first, it is no answer")
    func pageReadsEmptyAsAbsent() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            #expect(try await browser.signIn(fixture.client, from: form).redirect?.query["code"] != nil)
            let page = try await browser.send(
                fixture.client, "/end_session", method: .post, form: [(EndSessionRoutes.confirmationField, "")])
            #expect(page.status == .ok)
            #expect(page.body.contains("action=\"end_session\""), "the confirmation, not a 403 for a missing token")
            #expect(browser.cookies[BrowserSessions.cookieName] != nil, "still signed in")
        }
    }

    @Test(
        "/authorize reads a parameter sent empty as absent (RFC 6749 §3.1): the sign-in page, no error",
        arguments: ["max_age", "id_token_hint", "response_mode"])
    func authorizeReadsEmptyAsAbsent(_ name: String) async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await browser.send(fixture.client, SignInFixture.authorizeURI([(name, "")]))
            #expect(page.status == .ok, "\(name)")
            #expect(page.body.contains("action=\"login\""), "\(name)")
        }
    }

    @Test(
        "/revoke, /introspect and /device_authorization refuse a repeated parameter (RFC 6749 §3.2)",
        arguments: ["/revoke", "/introspect", "/device_authorization"])
    func endpointRefusesRepeat(_ path: String) async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post(
                path, [("client_id", "native"), ("token", "t"), ("scope", "openid"), ("client_id", "native")])
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_request")
            #expect(response["error_description"] == "client_id is repeated")
        }
    }

    @Test("the token endpoint reads a parameter sent empty as absent: `scope=` keeps the granted scope")
    func tokenReadsEmptyAsAbsent() async throws {
        try await TokenFixture.run { fixture in
            let refreshToken = try #require(try await fixture.signIn()["refresh_token"])
            let refreshed = try await fixture.refresh(refreshToken, scope: "")
            #expect(refreshed.status == .ok)
            #expect(refreshed["scope"] == "openid email profile offline_access")
        }
    }

    @Test("the admin API refuses a repeated query parameter, naming it, and still refuses `limit=`")
    func adminQuery() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let repeated = try await fixture.admin(.get, "/admin/users?limit=1&limit=2", token: token)
            #expect(repeated.status == .badRequest)
            #expect(repeated["error_description"] == "limit is repeated")
            #expect(try await fixture.admin(.get, "/admin/users?limit=", token: token).status == .badRequest)
            #expect(try await fixture.admin(.get, "/admin/users?after=", token: token).status == .ok)
        }
    }
}
