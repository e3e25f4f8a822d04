import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The admin console's client and keys pages: edits, a secret shown once, rotated keys, every form CSRF-checked")
struct AdminConsoleClientTests {
    /// A browser signed in to the console as the fixture's user, made an admin with a TOTP.
    private static func admin(_ fixture: SignInFixture) async throws -> Browser {
        let totp = try await AdminConsoleTests.makeAdmin(fixture)
        return try await AdminConsoleTests.consoleSignIn(fixture, totp: totp).0
    }

    /// The stored events of `type`, newest first.
    private static func events(_ fixture: SignInFixture, _ type: SecurityEventType) async throws
        -> [SecurityEventRecord]
    {
        try await fixture.provider.store.securityEvents(SecurityEventFilter(type: type.rawValue), limit: 50)
    }

    /// The settings form's fields for the client `web`, as the page fills them in, with `changes` replacing some.
    private static func settings(_ changes: [(String, String)]) -> [(String, String)] {
        var fields: [String: String] = [
            "id": "web", "client_name": "Example Web", "redirect_uris": SignInFixture.webRedirect,
            "post_logout_redirect_uris": SignInFixture.webSignedOut, "access_token_ttl": "", "refresh_token_ttl": "",
        ]
        for (name, value) in changes { fields[name] = value }
        return fields.sorted { $0.key < $1.key }
    }

    @Test("the clients list links each client's page, which shows its settings in forms and never its secret")
    func clientPage() async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            let list = try await browser.send(fixture.client, "/admin/console/clients")
            #expect(list.body.contains(#"<a href="../../admin/console/client?id=web">web</a>"#))
            let page = try await browser.send(fixture.client, "/admin/console/client?id=web")
            #expect(page.status == .ok && page.headers[.cacheControl] == "no-store")
            #expect(page.body.contains("<h1>Client web</h1>"))
            #expect(page.body.contains(">\(SignInFixture.webRedirect)</textarea>"))
            #expect(page.body.contains(#"action="../../admin/console/client/rotate-secret""#))
            #expect(!page.body.contains("client-secret"))
            #expect(!page.body.contains("<script"))

            let missing = try await browser.send(fixture.client, "/admin/console/client?id=nobody")
            #expect(missing.status == .notFound && missing.alert == "No client with this ID.")
            let own = try await browser.send(fixture.client, "/admin/console/client?id=limen-account")
            #expect(own.status == .notFound)
            let cli = try await browser.send(fixture.client, "/admin/console/client?id=limen-cli")
            #expect(cli.status == .ok && !cli.body.contains("rotate-secret"), "a public client has no secret")
        }
    }

    @Test("an admin edits a client's redirect URIs and lifetimes; the page shows the change; the event has the actor")
    func editSettings() async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            let page = try await browser.send(fixture.client, "/admin/console/client?id=web")
            let uris = "https://app.example/one\r\n\r\n  https://app.example/two  "
            let saved = try await browser.submit(
                fixture.client, page, to: "/admin/console/client/settings",
                Self.settings([("redirect_uris", uris), ("access_token_ttl", "600")]))
            #expect(saved.status == .ok && saved.body.contains("The settings are saved."))
            #expect(saved.body.contains(">https://app.example/one\nhttps://app.example/two</textarea>"))
            #expect(saved.body.contains(#"name="access_token_ttl" inputmode="numeric" value="600""#))
            let stored = try #require(try await fixture.provider.store.client(id: "web"))
            #expect(stored.redirectURIs == ["https://app.example/one", "https://app.example/two"])
            #expect(stored.accessTokenLifetime == 600 && stored.refreshTokenLifetime == nil)
            #expect(stored.name == "Example Web" && stored.secretHash == Data(repeating: 7, count: 32))
            let events = try await Self.events(fixture, .adminClientUpdated)
            #expect(events.count == 1 && events.first?.client == "web" && events.first?.actor == fixture.user.id)

            let refused = try await browser.submit(
                fixture.client, saved, to: "/admin/console/client/settings",
                Self.settings([("redirect_uris", "http://app.example/cb")]))
            #expect(refused.status == .badRequest && refused.alert?.contains("redirect_uris") == true)
            let lifetime = try await browser.submit(
                fixture.client, saved, to: "/admin/console/client/settings",
                Self.settings([("access_token_ttl", "ten minutes")]))
            #expect(lifetime.status == .badRequest && lifetime.alert?.contains("access_token_ttl") == true)
            #expect(try await fixture.provider.store.client(id: "web") == stored)
            #expect(try await Self.events(fixture, .adminClientUpdated).count == 1)

            let unknown = try await browser.submit(
                fixture.client, saved, to: "/admin/console/client/settings", [("id", "nobody")])
            #expect(unknown.status == .notFound)
        }
    }

    @Test("an admin sets a client's branding; a bad colour is refused on the page")
    func editBranding() async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            let page = try await browser.send(fixture.client, "/admin/console/client?id=web")
            let saved = try await browser.submit(
                fixture.client, page, to: "/admin/console/client/branding",
                [("id", "web"), ("display_name", "Example"), ("accent_color", "#0b6e4f"), ("theme", "dark")])
            #expect(saved.status == .ok && saved.body.contains("The branding is saved."))
            #expect(saved.body.contains(#"<option value="dark" selected>"#))
            let branding = try await fixture.provider.store.client(id: "web")?.branding
            #expect(branding == ClientBranding(displayName: "Example", accentColor: "#0b6e4f", theme: .dark))
            let refused = try await browser.submit(
                fixture.client, saved, to: "/admin/console/client/branding", [("id", "web"), ("accent_color", "red")])
            #expect(refused.status == .badRequest && refused.alert?.contains("accent_color") == true)
            #expect(try await fixture.provider.store.client(id: "web")?.branding == branding)
        }
    }

    @Test("an admin rotates a client's secret: shown once, the old hash gone, the event with the actor and no secret")
    func rotateSecret() async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            let page = try await browser.send(fixture.client, "/admin/console/client?id=web")
            let rotated = try await browser.submit(
                fixture.client, page, to: "/admin/console/client/rotate-secret", [("id", "web")])
            #expect(rotated.status == .ok)
            let secret = try #require(
                rotated.body.range(of: #"<code id="client-secret">"#).map { range in
                    String(rotated.body[range.upperBound...].prefix { $0 != "<" })
                })
            let stored = try #require(try await fixture.provider.store.client(id: "web"))
            #expect(stored.isProved(bySecret: secret))
            #expect(stored.secretHash != Data(repeating: 7, count: 32))
            let again = try await browser.send(fixture.client, "/admin/console/client?id=web")
            #expect(!again.body.contains(secret))
            let events = try await Self.events(fixture, .adminClientSecretRotated)
            #expect(events.count == 1 && events.first?.actor == fixture.user.id)
            #expect(!events.contains { "\($0)".contains(secret) })

            let cli = try await browser.send(fixture.client, "/admin/console/client?id=limen-cli")
            let refused = try await browser.submit(
                fixture.client, cli, to: "/admin/console/client/rotate-secret", [("id", "limen-cli")])
            #expect(refused.status == .badRequest && refused.alert?.contains("public client") == true)
        }
    }

    @Test("a client or keys form without its session's CSRF token changes nothing")
    func forgedForms() async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            _ = try await browser.send(fixture.client, "/admin/console/client?id=web")
            let before = try await fixture.provider.store.client(id: "web")
            let keys = fixture.provider.keys.keys.map(\.kid)
            for (path, form) in [
                ("/admin/console/client/settings", Self.settings([("redirect_uris", "https://evil.example/cb")])),
                ("/admin/console/client/branding", [("id", "web"), ("display_name", "Evil")]),
                ("/admin/console/client/rotate-secret", [("id", "web")]),
                ("/admin/console/keys/rotate", []),
            ] {
                for token in [nil, "forged"] {
                    let refused = try await browser.send(
                        fixture.client, path, method: .post, form: form + (token.map { [("csrf", $0)] } ?? []))
                    #expect(refused.status == .forbidden, "\(path) \(token ?? "no token")")
                }
            }
            #expect(try await fixture.provider.store.client(id: "web") == before)
            #expect(fixture.provider.keys.keys.map(\.kid) == keys)
            #expect(try await fixture.provider.store.signingKeys().map(\.kid) == keys)
        }
    }

    @Test("the keys page lists the keys; rotating publishes new ones in /jwks at once, recorded with the actor")
    func rotateKeys() async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            let before = fixture.provider.keys.keys.map(\.kid)
            let page = try await browser.send(fixture.client, "/admin/console/keys")
            #expect(page.status == .ok && page.body.contains("<h1>Signing keys</h1>"))
            for kid in before { #expect(page.body.contains("<code>\(kid)</code>")) }
            #expect(page.body.contains("signing") && !page.body.contains("upcoming"))

            let rotated = try await browser.submit(fixture.client, page, to: "/admin/console/keys/rotate", [])
            #expect(rotated.status == .ok && rotated.body.contains("New keys are published"))
            let added = fixture.provider.keys.keys.map(\.kid).filter { !before.contains($0) }
            #expect(added.count == 2)
            let jwks = try await browser.send(fixture.client, "/jwks")
            for kid in added + before {
                #expect(jwks.body.contains(kid))
                #expect(rotated.body.contains("<code>\(kid)</code>"))
            }
            #expect(rotated.body.contains("upcoming"))
            let events = try await Self.events(fixture, .keyRotated)
            #expect(events.count == 2 && events.allSatisfy { $0.actor == fixture.user.id })
        }
    }

    @Test("a non-admin sees no client or keys page and changes nothing")
    func nonAdmin() async throws {
        try await withSignIn { fixture in
            let totp = try await fixture.provider.enableTOTP(for: fixture.user, at: fixture.clock.now)
            var (browser, _) = try await AdminConsoleTests.consoleSignIn(fixture, totp: totp)
            for path in ["/admin/console/client?id=web", "/admin/console/keys"] {
                let refused = try await browser.send(fixture.client, path)
                #expect(refused.status == .forbidden && !refused.body.contains("<form method=\"post\""), "\(path)")
            }
        }
    }
}
