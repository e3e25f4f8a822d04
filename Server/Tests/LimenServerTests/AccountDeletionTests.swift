import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Deleting one's account on the hosted account page")
struct AccountDeletionTests {
    /// A browser signed in as the fixture's user, with a profile, on its account page.
    private static func signedIn(_ fixture: SignInFixture) async throws -> (Browser, Page) {
        try await fixture.provider.installProfileSchema()
        #expect(
            try await fixture.provider.store.writeProfile(
                userID: fixture.user.id, data: ["nickname": .string("ada")], expectedRevision: 0,
                now: fixture.clock.now) == 1)
        var browser = Browser()
        _ = try await browser.signIn(
            fixture.client, from: try await browser.send(fixture.client, SignInFixture.authorizeURI()))
        let page = try await browser.send(fixture.client, "/account")
        #expect(page.body.contains(#"value="delete_account""#), "the page offers the deletion")
        return (browser, page)
    }

    @Test("the current password deletes the account, its profile and sessions, and signs the browser out")
    func deletes() async throws {
        try await withSignIn { fixture in
            var (browser, page) = try await Self.signedIn(fixture)
            let done = try await browser.submit(
                fixture.client, page, to: "/account",
                [("intent", "delete_account"), ("password", SignInFixture.password)])
            #expect(done.status == .ok)
            #expect(done.body.contains("Account deleted"))
            #expect(browser.cookies[BrowserSessions.cookieName] == nil)
            #expect(try await fixture.provider.store.user(id: fixture.user.id) == nil)
            #expect(try await fixture.provider.store.profile(userID: fixture.user.id) == nil)
            let again = try await browser.send(fixture.client, "/account")
            #expect(again.status == .unauthorized)
        }
    }

    @Test(
        "a wrong or missing password deletes nothing and says why; a forged form is refused",
        arguments: [
            ([("intent", "delete_account"), ("password", "not my password")], HTTPTypes.HTTPResponse.Status.forbidden),
            ([("intent", "delete_account")], .badRequest),
        ])
    func refusals(_ fields: [(String, String)], _ status: HTTPTypes.HTTPResponse.Status) async throws {
        try await withSignIn { fixture in
            var (browser, page) = try await Self.signedIn(fixture)
            let refused = try await browser.submit(fixture.client, page, to: "/account", fields)
            #expect(refused.status == status)
            #expect(refused.alert != nil, "\(refused.body.prefix(400))")
            #expect(try await fixture.provider.store.user(id: fixture.user.id) != nil)
            #expect(try await fixture.provider.store.profile(userID: fixture.user.id)?.data.isEmpty == false)

            let forged = try await browser.send(
                fixture.client, "/account", method: .post,
                form: [("csrf", "x"), ("intent", "delete_account"), ("password", SignInFixture.password)])
            #expect(forged.status == .forbidden)
            #expect(try await fixture.provider.store.user(id: fixture.user.id) != nil)
        }
    }

    @Test("guessing the password on the account page meets the sign-in lockout: then even the right one waits")
    func lockout() async throws {
        try await withSignIn { fixture in
            var (browser, page) = try await Self.signedIn(fixture)
            var statuses: [HTTPTypes.HTTPResponse.Status] = []
            for _ in 1...SignInLockout().threshold {
                let guess = try await browser.submit(
                    fixture.client, page, to: "/account", [("intent", "delete_account"), ("password", "guess")])
                statuses.append(guess.status)
            }
            #expect(statuses.allSatisfy { $0 == .forbidden }, "\(statuses)")
            let locked = try await browser.submit(
                fixture.client, page, to: "/account",
                [("intent", "delete_account"), ("password", SignInFixture.password)])
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter].flatMap { Int($0) }.map { $0 > 0 } == true)
            #expect(try await fixture.provider.store.user(id: fixture.user.id) != nil)
        }
    }
}
