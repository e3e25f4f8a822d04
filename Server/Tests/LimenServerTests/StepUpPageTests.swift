import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Step-up on the hosted pages: acr_values above the browser session's level ask only for the missing step")
struct StepUpPageTests {
    /// The code record `page`'s redirect carries (redeemed, so its methods can be read).
    private static func redeemed(_ page: Page, _ fixture: SignInFixture) async throws -> AuthorizationCodeRecord {
        let code = try #require(page.redirect?.query["code"])
        return try #require(
            try await fixture.provider.store.redeemedCode(hash: RandomIdentifier.hash(code), now: fixture.clock.now))
    }

    @Test("a password session asked for mfa shows the second step only; its code makes a session and code at mfa")
    func stepUpWithTOTP() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let first = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
            #expect(try await Self.redeemed(first, fixture).methods == AuthenticationMethods([.password]))
            let totp = try await fixture.provider.enableTOTP(for: fixture.user, at: fixture.clock.now)

            let asked = try await browser.send(fixture.client, SignInFixture.authorizeURI([("acr_values", "mfa")]))
            let requestID = try #require(asked.redirect?.query["request"])
            #expect(asked.redirect?.base == "login", "to the sign-in page, at its second step")
            let step = try await browser.send(fixture.client, "/login?request=\(requestID)")
            #expect(step.body.contains("<h1>Two-step sign-in</h1>"))
            #expect(!step.body.contains("name=\"password\""), "the password was given already")

            fixture.clock.advance(by: 30)
            let done = try await browser.submit(
                fixture.client, step, to: "/login",
                [("totp", totp.code(at: fixture.clock.now)), ("action", "submit-totp")])
            #expect(done.redirect?.base == SignInFixture.cliRedirect)
            let record = try await Self.redeemed(done, fixture)
            #expect(record.methods == AuthenticationMethods([.password, .oneTimePassword, .multipleFactors]))

            let again = try await browser.send(fixture.client, SignInFixture.authorizeURI([("acr_values", "mfa")]))
            #expect(again.redirect?.query["code"] != nil, "the new session reaches mfa: single sign-on again")
        }
    }

    @Test(
        "without a way to reach the level the client gets unmet_authentication_requirements; prompt=none, interaction_required"
    )
    func refusals() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.signIn(
                fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))

            let unmet = try await browser.send(fixture.client, SignInFixture.authorizeURI([("acr_values", "phr")]))
            #expect(unmet.redirect?.base == SignInFixture.cliRedirect)
            #expect(unmet.redirect?.query["error"] == "unmet_authentication_requirements")
            #expect(unmet.redirect?.query["code"] == nil, "never a code at a lower acr")

            let silent = try await browser.send(
                fixture.client, SignInFixture.authorizeURI([("acr_values", "mfa"), ("prompt", "none")]))
            #expect(silent.redirect?.query["error"] == "interaction_required")

            let unknown = try await browser.send(
                fixture.client, SignInFixture.authorizeURI([("acr_values", "urn:example:gold")]))
            #expect(unknown.redirect?.query["error"] == "invalid_request")
            #expect(unknown.redirect?.query["error_description"]?.contains("phr, mfa, 1, 0") == true)

            let discovery = try await browser.send(fixture.client, "/.well-known/openid-configuration")
            let metadata = try JSONValue(parsing: Data(discovery.body.utf8))
            #expect(metadata.objectValue?["acr_values_supported"]?.stringArrayValue == ["phr", "mfa", "1", "0"])
            #expect(metadata.objectValue?["claims_supported"]?.stringArrayValue?.contains("amr") == true)
        }
    }
}
