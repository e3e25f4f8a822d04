import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Signing in again for the account page: a stale session signs in and comes back, and nobody else does")
struct AccountReauthenticationTests {
    /// Makes the fixture's user a passkey and signs them in on the account page, then lets their sign-in grow older
    /// than `account_change_max_age` and tries to delete the passkey: the browser, the page, the form, the answer.
    private static func staleChange(
        _ fixture: SignInFixture
    ) async throws -> (Browser, Page, [(String, String)], Page) {
        let passkey = PasskeyCredentialRecord(
            credentialID: Data([5, 5]), userID: fixture.user.id, userHandle: Data([5]), publicKey: Data([0xa0]),
            signCount: 0, isBackupEligible: true, isBackedUp: true, name: "Phone", createdAt: fixture.clock.now)
        #expect(try await fixture.provider.store.insertPasskeyCredential(passkey))
        var (browser, page) = try await AccountPageTests.signedIn(fixture)
        fixture.clock.advance(by: TokenLifetimes().accountChangeMaxAge + 1)
        let form = [("intent", "delete_passkey"), ("id", Base64URL.encode(passkey.credentialID))]
        let stale = try await browser.submit(fixture.client, page, to: "/account", form)
        return (browser, page, form, stale)
    }

    /// Follows the stale answer to the sign-in page of the sign-in again.
    private static func signInPage(
        after stale: Page, in browser: inout Browser, _ fixture: SignInFixture
    ) async throws -> Page {
        let start = try #require(stale.headers[.location])
        #expect(stale.status == .found && start == "account/sign-in?return_to=%2Faccount")
        let toSignIn = try await browser.send(fixture.client, "/" + start)
        let location = try #require(toSignIn.headers[.location])
        #expect(toSignIn.status == .found && location.hasPrefix("../login?request="))
        return try await browser.send(fixture.client, String(location.dropFirst(2)))
    }

    /// The browser session `browser` holds now.
    private static func session(of browser: Browser, _ fixture: SignInFixture) async throws -> BrowserSessionRecord? {
        let clock = fixture.clock
        return try await BrowserSessions(store: fixture.provider.store, now: { clock.now })
            .current(cookieValue: browser.cookies[BrowserSessions.cookieName])
    }

    @Test("a change with a stale sign-in sends the user to sign in again and back to /account with a fresh auth_time")
    func staleSignsInAndComesBack() async throws {
        try await withSignIn { fixture in
            var (browser, _, form, stale) = try await Self.staleChange(fixture)
            #expect(try await fixture.provider.store.passkeyCredential(id: Data([5, 5])) != nil, "nothing changed")
            let signIn = try await Self.signInPage(after: stale, in: &browser, fixture)
            #expect(signIn.status == .ok)
            #expect(signIn.body.contains(#"value="\#(SignInFixture.email)""#), "the address is filled in")

            let back = try await browser.signIn(fixture.client, from: signIn)
            #expect(back.status == .found && back.headers[.location] == "./account")
            let renewed = try #require(try await Self.session(of: browser, fixture))
            #expect(renewed.subject == fixture.user.id && renewed.authTime == fixture.clock.now)

            let page = try await browser.send(fixture.client, "/account")
            let deleted = try await browser.submit(fixture.client, page, to: "/account", form)
            #expect(deleted.status == .ok, "the change, made again, goes through")
            #expect(try await fixture.provider.store.passkeyCredential(id: Data([5, 5])) == nil)
            let replayed = try await browser.signIn(fixture.client, from: signIn)
            #expect(replayed.status != .found, "the sign-in again is answered once")
        }
    }

    @Test("signing in again as another account is refused, and the browser keeps its session and its user")
    func anotherAccountRefused() async throws {
        try await withSignIn { fixture in
            _ = try await fixture.provider.accounts.signUp(
                email: "mallory@example.com", password: SignInFixture.password, name: "Mallory", origin: RequestOrigin()
            )
            var (browser, _, _, stale) = try await Self.staleChange(fixture)
            let before = try #require(try await Self.session(of: browser, fixture))
            let signIn = try await Self.signInPage(after: stale, in: &browser, fixture)

            let refused = try await browser.signIn(fixture.client, from: signIn, email: "mallory@example.com")
            #expect(refused.status == .forbidden)
            #expect(refused.body.contains("another account"))
            let after = try #require(try await Self.session(of: browser, fixture))
            #expect(after.idHash == before.idHash && after.subject == fixture.user.id)
            #expect(after.authTime == before.authTime, "the session is not renewed")
            #expect(try await fixture.provider.store.passkeyCredential(id: Data([5, 5])) != nil)
        }
    }

    @Test(
        "a return_to that is not a path of the account page is refused",
        arguments: [
            "//evil.example/account", "https://evil.example/account", "/accounts", "/account/../login",
            "/account/%2e%2e/login", "/account\\evil", "/login", "/account#x", "/account//evil.example", "account",
            "/account/", "/account?next=https://evil.example",
        ])
    func hostileReturnTo(_ returnTo: String) async throws {
        try await withSignIn { fixture in
            var (browser, _) = try await AccountPageTests.signedIn(fixture)
            let refused = try await browser.send(
                fixture.client, "/account/sign-in?" + FormEncoding.encode([("return_to", returnTo)]))
            #expect(refused.status == .badRequest)
            #expect(refused.headers[.location] == nil)
            #expect(PendingAuthorization.reauthenticationReturnPath(returnTo) == nil)
        }
    }

    @Test("return_to may name the account page or a path below it, with a plain query")
    func returnPaths() {
        for path in ["/account", "/account/passkeys", "/account?tab=security&x=1"] {
            #expect(PendingAuthorization.reauthenticationReturnPath(path) == path)
        }
    }

    @Test("without a session there is nobody to sign in again")
    func withoutSession() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await browser.send(fixture.client, "/account/sign-in")
            #expect(page.status == .unauthorized && page.headers[.location] == nil)
        }
    }
}
