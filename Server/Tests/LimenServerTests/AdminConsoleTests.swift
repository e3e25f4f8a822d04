import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The admin console's sign-in: an admin with a fresh second factor gets in, nobody else does")
struct AdminConsoleTests {
    /// Makes the fixture's user an admin (from the command line) and, when `twoStep`, turns on their TOTP.
    static func makeAdmin(_ fixture: SignInFixture, twoStep: Bool = true) async throws -> TOTP? {
        let roles = AdminRoles(store: fixture.provider.store, now: { fixture.clock.now })
        #expect(try await roles.grant(to: fixture.user.id, origin: .commandLine))
        return twoStep ? try await fixture.provider.enableTOTP(for: fixture.user, at: fixture.clock.now) : nil
    }

    /// Signs in on the hosted page `start` leads to (a redirect to `…login?request=…`) as `email`, with the code of
    /// `totp` when given; the answer of the last step.
    static func signIn(
        from start: Page, in browser: inout Browser, _ fixture: SignInFixture, email: String = SignInFixture.email,
        totp: TOTP?
    ) async throws -> Page {
        let location = try #require(start.headers[.location])
        let login = try #require(location.range(of: "login?request="))
        let form = try await browser.send(fixture.client, "/" + location[login.lowerBound...])
        let answer = try await browser.signIn(fixture.client, from: form, email: email)
        guard let totp else { return answer }
        return try await browser.submit(
            fixture.client, answer, to: "/login",
            [("totp", totp.code(at: fixture.clock.now)), ("action", "submit-totp")])
    }

    /// A browser signed in to the console through `/admin/console/sign-in` as `email` (with `totp`'s code when given);
    /// the answer of the sign-in's last step.
    static func consoleSignIn(
        _ fixture: SignInFixture, email: String = SignInFixture.email, totp: TOTP?
    ) async throws -> (Browser, Page) {
        var browser = Browser()
        let start = try await browser.send(fixture.client, "/admin/console/sign-in")
        #expect(start.status == .found && start.headers[.location]?.hasPrefix("../../login?request=") == true)
        let done = try await signIn(from: start, in: &browser, fixture, email: email, totp: totp)
        return (browser, done)
    }

    @Test(
        "an admin signing in with a second factor comes back to the console, whose pages are no-store and script-free")
    func adminGetsIn() async throws {
        try await withSignIn { fixture in
            let totp = try await Self.makeAdmin(fixture)
            var (browser, done) = try await Self.consoleSignIn(fixture, totp: totp)
            #expect(done.status == .found && done.headers[.location] == "./admin/console")

            let home = try await browser.send(fixture.client, "/admin/console")
            #expect(home.status == .ok && home.isHTML)
            #expect(home.body.contains("Signed in as \(SignInFixture.email)"))
            #expect(home.headers[.cacheControl] == "no-store")
            let policy = try #require(home.headers[.contentSecurityPolicy])
            #expect(policy.contains("default-src 'none'") && !policy.contains("script-src"))
            #expect(!home.body.contains("<script"))
            #expect(home.body.contains(#"href="../static/limen.css""#), "the stylesheet from the console's path")

            let events = try await browser.send(fixture.client, "/admin/console/events?type=admin.role_granted&user=")
            #expect(events.status == .ok && events.headers[.cacheControl] == "no-store")
            #expect(events.body.contains("<strong>admin.role_granted</strong>"))
            #expect(events.body.contains("actor command_line"))
            #expect(!events.body.contains("<strong>user.signed_in</strong>"), "filtered by type")
            #expect(events.body.contains(#"<option value="admin.role_granted" selected>"#))
            #expect(events.body.contains(#"href="../../static/limen.css""#))

            let refused = try await browser.send(fixture.client, "/admin/console/events?since=yesterday")
            #expect(refused.status == .badRequest && refused.alert?.contains("RFC 3339") == true)
        }
    }

    @Test("without a session the console asks to sign in; GET /admin sends a browser there and answers others 404")
    func signedOut() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            for path in ["/admin/console", "/admin/console/events"] {
                let page = try await browser.send(fixture.client, path)
                #expect(page.status == .unauthorized && page.isHTML, "\(path)")
                #expect(page.body.contains("admin/console/sign-in"))
                #expect(page.headers[.cacheControl] == "no-store")
            }
            let html = try await fixture.client.executeRequest(
                uri: "/admin", method: .get, headers: [.accept: "text/html,application/xhtml+xml"], body: nil)
            #expect(html.status == .found && html.headers[.location] == "admin/console")
            let json = try await fixture.client.executeRequest(
                uri: "/admin", method: .get, headers: [.accept: "application/json"], body: nil)
            #expect(json.status == .notFound)
        }
    }

    @Test("a user without the admin role is refused with a page that names nobody, even with a second factor")
    func notAdmin() async throws {
        try await withSignIn { fixture in
            let totp = try await fixture.provider.enableTOTP(for: fixture.user, at: fixture.clock.now)
            var (browser, _) = try await Self.consoleSignIn(fixture, totp: totp)
            let refused = try await browser.send(fixture.client, "/admin/console")
            #expect(refused.status == .forbidden && refused.body.contains("No access"))
            #expect(!refused.body.contains(SignInFixture.email) && !refused.body.contains(fixture.user.id))
            let events = try await browser.send(fixture.client, "/admin/console/events")
            #expect(events.status == .forbidden && !events.body.contains("<ol class=\"events\">"))
        }
    }

    @Test("an admin whose sign-in used no second factor is sent to enrol one at /account, and sees nothing")
    func noSecondFactor() async throws {
        try await withSignIn { fixture in
            _ = try await Self.makeAdmin(fixture, twoStep: false)
            var (browser, done) = try await Self.consoleSignIn(fixture, totp: nil)
            #expect(done.headers[.location] == "./admin/console")
            let refused = try await browser.send(fixture.client, "/admin/console/events")
            #expect(refused.status == .forbidden && refused.body.contains("Second factor needed"))
            #expect(refused.body.contains(#"href="../../account""#))
            #expect(!refused.body.contains("admin.role_granted"))
        }
    }

    @Test("a sign-in older than 15 minutes is sent to sign in again as the same admin, and comes back to the console")
    func staleSignIn() async throws {
        try await withSignIn { fixture in
            let totp = try #require(try await Self.makeAdmin(fixture))
            var (browser, _) = try await Self.consoleSignIn(fixture, totp: totp)
            fixture.clock.advance(by: AdminConsoleGate.maxAge)
            #expect(try await browser.send(fixture.client, "/admin/console").status == .ok, "15 minutes is fresh")
            fixture.clock.advance(by: 1)
            let stale = try await browser.send(fixture.client, "/admin/console")
            #expect(stale.status == .found)
            #expect(stale.headers[.location] == "../account/sign-in?return_to=%2Fadmin%2Fconsole")

            let again = try await browser.send(fixture.client, "/account/sign-in?return_to=%2Fadmin%2Fconsole")
            let back = try await Self.signIn(from: again, in: &browser, fixture, totp: totp)
            #expect(back.status == .found && back.headers[.location] == "./admin/console")
            #expect(try await browser.send(fixture.client, "/admin/console").status == .ok)
        }
    }

    @Test("a non-admin's session cookie planted in a browser opens no console page")
    func plantedCookie() async throws {
        try await withSignIn { fixture in
            let totp = try await Self.makeAdmin(fixture)
            let mallory = try await fixture.provider.accounts.signUp(
                email: "mallory@example.com", password: SignInFixture.password, name: "Mallory",
                origin: RequestOrigin())
            let malloryTOTP = try await fixture.provider.enableTOTP(for: mallory, at: fixture.clock.now)
            let (planted, _) = try await Self.consoleSignIn(
                fixture, email: "mallory@example.com", totp: malloryTOTP)
            var (admin, _) = try await Self.consoleSignIn(fixture, totp: totp)
            #expect(try await admin.send(fixture.client, "/admin/console").status == .ok)

            var attacked = Browser(cookies: planted.cookies)
            #expect(try await attacked.send(fixture.client, "/admin/console").status == .forbidden)
            #expect(try await attacked.send(fixture.client, "/admin/console/events").status == .forbidden)
        }
    }

    /// The registration form's fields for a confidential client `id`.
    private static let registration = [
        ("client_id", "billing"), ("client_name", "Billing"), ("kind", "confidential"),
        ("redirect_uris", "https://billing.example/cb\r\n\r\nhttps://billing.example/cb2"),
    ]

    @Test(
        "an admin registers a client: its secret shown once, only its hash kept, the admin the event's actor"
    )
    func registerClient() async throws {
        try await withSignIn { fixture in
            let totp = try await Self.makeAdmin(fixture)
            var (browser, _) = try await Self.consoleSignIn(fixture, totp: totp)
            let page = try await browser.send(fixture.client, "/admin/console/clients")
            #expect(page.status == .ok && page.body.contains("Register a client"))
            #expect(!page.body.contains("limen-account"), "the server's own client is not listed")

            let created = try await browser.submit(
                fixture.client, page, to: "/admin/console/clients", Self.registration)
            #expect(created.status == .ok && created.headers[.cacheControl] == "no-store")
            let secret = try #require(
                created.body.range(of: #"<code id="client-secret">"#).map { range in
                    String(created.body[range.upperBound...].prefix { $0 != "<" })
                })
            let stored = try #require(try await fixture.provider.store.client(id: "billing"))
            #expect(stored.isProved(bySecret: secret))
            #expect(stored.redirectURIs == ["https://billing.example/cb", "https://billing.example/cb2"])
            let listed = try await browser.send(fixture.client, "/admin/console/clients")
            #expect(listed.body.contains(#"client?id=billing">billing</a></strong>"#) && !listed.body.contains(secret))

            let events = try await fixture.provider.store.securityEvents(
                SecurityEventFilter(type: "admin.client_created"), limit: 10)
            #expect(events.map(\.client) == ["billing"])
            #expect(events.first?.actor == fixture.user.id)
            #expect(!events.contains { $0.details.contains(secret) })

            let again = try await browser.submit(
                fixture.client, listed, to: "/admin/console/clients", Self.registration)
            #expect(again.status == .conflict && again.alert?.contains("billing") == true)
            let bad = try await browser.submit(
                fixture.client, listed, to: "/admin/console/clients",
                [("client_id", "other"), ("kind", "confidential"), ("redirect_uris", "javascript:alert(1)")])
            #expect(bad.status == .badRequest && bad.alert != nil)
            #expect(try await fixture.provider.store.client(id: "other") == nil)
        }
    }

    @Test("a console form without its session's CSRF token, or with another session's, changes nothing")
    func badCSRF() async throws {
        try await withSignIn { fixture in
            let totp = try await Self.makeAdmin(fixture)
            var (browser, _) = try await Self.consoleSignIn(fixture, totp: totp)
            // The page sets the browser's CSRF secret, which a forged form would find.
            _ = try await browser.send(fixture.client, "/admin/console/clients")
            fixture.clock.advance(by: 30)  // the next time step's code: a used one is refused
            var (other, _) = try await Self.consoleSignIn(fixture, totp: totp)
            let otherPage = try await other.send(fixture.client, "/admin/console/clients")
            let otherToken = try #require(
                otherPage.body.range(of: #"name="csrf" value=""#).map { range in
                    String(otherPage.body[range.upperBound...].prefix { $0 != "\"" })
                })
            for token in [nil, "forged", otherToken] {
                let fields = Self.registration + (token.map { [("csrf", $0)] } ?? [])
                let refused = try await browser.send(
                    fixture.client, "/admin/console/clients", method: .post, form: fields)
                #expect(refused.status == .forbidden, "\(token ?? "no token")")
            }
            #expect(try await fixture.provider.store.client(id: "billing") == nil)
            #expect(
                try await fixture.provider.store.securityEvents(
                    SecurityEventFilter(type: "admin.client_created"), limit: 10
                ).isEmpty)
        }
    }

    @Test("an admin finds a user by email or subject, sees their identities and events, and deletes them as the actor")
    func findAndDeleteUser() async throws {
        try await withSignIn { fixture in
            let (totp, grace) = try await Self.makeAdminAndGrace(fixture)
            var (browser, _) = try await Self.consoleSignIn(fixture, totp: totp)
            let byEmail = try await browser.send(fixture.client, "/admin/console/users?q=GRACE%40example.com")
            #expect(byEmail.status == .ok && byEmail.body.contains(grace.id))
            #expect(
                byEmail.body.contains("Identities: email, password")
                    || byEmail.body.contains("Identities: password, email"))
            #expect(byEmail.body.contains("<strong>user.created</strong>"))
            let byID = try await browser.send(fixture.client, "/admin/console/users?q=\(grace.id)")
            #expect(byID.status == .ok && byID.body.contains("<h2 id=\"user-heading\">grace@example.com</h2>"))
            let missing = try await browser.send(fixture.client, "/admin/console/users?q=nobody%40example.com")
            #expect(missing.status == .notFound && missing.alert?.contains("No user") == true)

            let forged = try await browser.send(
                fixture.client, "/admin/console/users/delete", method: .post, form: [("id", grace.id)])
            #expect(forged.status == .forbidden)
            #expect(try await fixture.provider.store.user(id: grace.id) != nil)

            let deleted = try await browser.submit(
                fixture.client, byID, to: "/admin/console/users/delete", [("id", grace.id)])
            #expect(deleted.status == .ok && deleted.body.contains("The user is deleted."))
            #expect(try await fixture.provider.store.user(id: grace.id) == nil)
            let events = try await fixture.provider.store.securityEvents(
                SecurityEventFilter(user: grace.id), limit: 10)
            let adminDeleted = try #require(events.first { $0.type == "admin.user_deleted" })
            #expect(adminDeleted.actor == fixture.user.id)
            #expect(events.contains { $0.type == "user.deleted" })
            let again = try await browser.submit(
                fixture.client, byID, to: "/admin/console/users/delete", [("id", grace.id)])
            #expect(again.status == .notFound)
        }
    }

    @Test("an admin disables a user and enables them again on their page, each form CSRF-checked, as the actor")
    func disableAndEnableUser() async throws {
        try await withSignIn { fixture in
            let (totp, grace) = try await Self.makeAdminAndGrace(fixture)
            var (browser, _) = try await Self.consoleSignIn(fixture, totp: totp)
            let page = try await browser.send(fixture.client, "/admin/console/users?q=\(grace.id)")
            #expect(page.status == .ok && page.body.contains("<strong id=\"user-state\">enabled</strong>"))

            let forged = try await browser.send(
                fixture.client, "/admin/console/users/disable", method: .post, form: [("id", grace.id)])
            #expect(forged.status == .forbidden)
            #expect(try await fixture.provider.store.disabledAt(userID: grace.id) == nil)

            let disabled = try await browser.submit(
                fixture.client, page, to: "/admin/console/users/disable", [("id", grace.id)])
            #expect(disabled.status == .ok && disabled.body.contains("The user is disabled."))
            #expect(disabled.body.contains("<strong id=\"user-state\">disabled</strong>"))
            #expect(disabled.body.contains("Enable this user"))
            #expect(try await fixture.provider.store.disabledAt(userID: grace.id) != nil)
            let events = try await fixture.provider.store.securityEvents(
                SecurityEventFilter(type: "admin.user_disabled"), limit: 10)
            #expect(events.count == 1 && events.first?.user == grace.id && events.first?.actor == fixture.user.id)

            let enabled = try await browser.submit(
                fixture.client, disabled, to: "/admin/console/users/enable", [("id", grace.id)])
            #expect(enabled.status == .ok && enabled.body.contains("<strong id=\"user-state\">enabled</strong>"))
            #expect(try await fixture.provider.store.disabledAt(userID: grace.id) == nil)
        }
    }

    @Test("an admin sees a user's sessions on their page and signs them out everywhere, CSRF-checked, as the actor")
    func signUserOutEverywhere() async throws {
        try await withSignIn { fixture in
            let (totp, grace) = try await Self.makeAdminAndGrace(fixture)
            let now = fixture.clock.now
            try await fixture.provider.store.insertBrowserSession(
                BrowserSessionRecord(
                    idHash: RandomIdentifier.hash("grace's browser"), subject: grace.id, authTime: now,
                    expiresAt: now.addingTimeInterval(3600), methods: AuthenticationMethods([.password])))
            var (browser, _) = try await Self.consoleSignIn(fixture, totp: totp)
            let page = try await browser.send(fixture.client, "/admin/console/users?q=\(grace.id)")
            #expect(page.status == .ok && page.body.contains("<strong>browser</strong>"))
            #expect(!page.body.contains("No live sessions."))

            let forged = try await browser.send(
                fixture.client, "/admin/console/users/revoke-sessions", method: .post, form: [("id", grace.id)])
            #expect(forged.status == .forbidden)
            #expect(try await fixture.provider.store.browserSessions(subject: grace.id, now: now).count == 1)

            let done = try await browser.submit(
                fixture.client, page, to: "/admin/console/users/revoke-sessions", [("id", grace.id)])
            #expect(done.status == .ok && done.body.contains("The user is signed out everywhere."))
            #expect(done.body.contains("No live sessions."))
            #expect(try await fixture.provider.store.browserSessions(subject: grace.id, now: now).isEmpty)
            let events = try await fixture.provider.store.securityEvents(
                SecurityEventFilter(type: "admin.sessions_revoked"), limit: 10)
            #expect(events.count == 1 && events.first?.user == grace.id && events.first?.actor == fixture.user.id)
            #expect(
                try await !fixture.provider.store.browserSessions(subject: fixture.user.id, now: now).isEmpty,
                "the admin's own session stays")
        }
    }

    /// Makes the fixture's user an admin (their TOTP returned) and signs up Grace, whom the tests administer.
    private static func makeAdminAndGrace(_ fixture: SignInFixture) async throws -> (TOTP?, UserRecord) {
        let totp = try await makeAdmin(fixture)
        let grace = try await fixture.provider.accounts.signUp(
            email: "grace@example.com", password: SignInFixture.password, name: "Grace", origin: RequestOrigin())
        return (totp, grace)
    }

    @Test("a non-admin can neither find nor delete a user in the console")
    func nonAdminCannotDelete() async throws {
        try await withSignIn { fixture in
            let totp = try await fixture.provider.enableTOTP(for: fixture.user, at: fixture.clock.now)
            var (browser, _) = try await Self.consoleSignIn(fixture, totp: totp)
            let search = try await browser.send(fixture.client, "/admin/console/users?q=\(fixture.user.id)")
            #expect(search.status == .forbidden && !search.body.contains(fixture.user.id))
            let delete = try await browser.send(
                fixture.client, "/admin/console/users/delete", method: .post, form: [("id", fixture.user.id)])
            #expect(delete.status == .forbidden)
            #expect(try await fixture.provider.store.user(id: fixture.user.id) != nil)
        }
    }
}
