import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The admin console's webhooks, flows and profile schema pages: a secret shown once, deliveries retried, CSRF")
struct AdminConsoleWebhookTests {
    /// Loopback `http` allowed, and no second attempt: a refused connection fails a delivery at once.
    private static func loopback(_ configuration: inout ServerConfiguration) {
        configuration.webhooks.allowsHTTPLoopback = true
        configuration.webhooks.retries = WebhookRetrySchedule(firstBackoff: 1, maximumBackoff: 1, window: 0)
    }

    /// A browser signed in to the console as the fixture's user, made an admin with a TOTP.
    private static func admin(_ fixture: SignInFixture) async throws -> Browser {
        let totp = try await AdminConsoleTests.makeAdmin(fixture)
        return try await AdminConsoleTests.consoleSignIn(fixture, totp: totp).0
    }

    /// The stored `admin.webhook_*` events, oldest first.
    private static func webhookEvents(_ fixture: SignInFixture) async throws -> [SecurityEventRecord] {
        try await fixture.provider.store.securityEvents(SecurityEventFilter(), limit: 100).reversed()
            .filter { $0.type.hasPrefix("admin.webhook") }
    }

    /// Registers a webhook to `url` for `events` through the console's form; the answer.
    private static func register(
        _ browser: inout Browser, _ fixture: SignInFixture, url: String, events: String
    ) async throws -> Page {
        let list = try await browser.send(fixture.client, "/admin/console/webhooks")
        return try await browser.submit(
            fixture.client, list, to: "/admin/console/webhooks",
            [("url", url), ("events", events), ("description", "CRM")])
    }

    /// The secret a page shows once, if it shows one.
    private static func secret(in page: Page) -> String? {
        guard let start = page.body.range(of: #"<code id="webhook-secret">"#) else { return nil }
        return String(page.body[start.upperBound...].prefix { $0 != "<" })
    }

    @Test(
        "an admin registers a webhook: its secret shown once, never on a reload; the patterns split; the event's actor")
    func register() async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            let created = try await Self.register(
                &browser, fixture, url: "https://hooks.example/limen",
                events: "user.*, admin.client_created\nkey.rotated")
            #expect(created.status == .ok)
            let secret = try #require(Self.secret(in: created))
            #expect(secret.hasPrefix("whsec_"))
            let stored = try await fixture.provider.store.webhooks()
            #expect(stored.map(\.events) == [["user.*", "admin.client_created", "key.rotated"]])
            let id = try #require(stored.first?.id)
            #expect(fixture.provider.webhooks.secret(of: try #require(stored.first))?.rawValue == secret)
            #expect(created.body.contains(#"href="../../admin/console/webhook?id=\#(id)""#))

            let reload = try await browser.send(fixture.client, "/admin/console/webhooks")
            #expect(reload.status == .ok && !reload.body.contains(secret) && Self.secret(in: reload) == nil)
            #expect(reload.body.contains("user.*, admin.client_created, key.rotated"))
            let page = try await browser.send(fixture.client, "/admin/console/webhook?id=\(id)")
            #expect(
                page.status == .ok && page.body.contains("<h1>Webhook</h1>")
                    && page.body.contains("<p><code>\(id)</code>") && !page.body.contains(secret))
            #expect(page.body.contains("No deliveries yet."))

            let events = try await Self.webhookEvents(fixture)
            #expect(events.map(\.type) == ["admin.webhook_created"])
            #expect(events.allSatisfy { $0.actor == fixture.user.id && !$0.details.contains("whsec_") })
        }
    }

    @Test(
        "refused on the page: an http URL without allow_http_webhooks, an unknown pattern, no pattern",
        arguments: [
            ("http://127.0.0.1:9/hook", "*", "url:"), ("https://hooks.example/limen", "user.nonsense", "events:"),
            ("https://hooks.example/limen", " , ", "events:"),
        ])
    func refused(_ url: String, _ events: String, _ said: String) async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            let refused = try await Self.register(&browser, fixture, url: url, events: events)
            #expect(refused.status == .badRequest && refused.alert?.hasPrefix(said) == true, "\(refused.alert ?? "")")
            #expect(Self.secret(in: refused) == nil)
            #expect(try await fixture.provider.store.webhooks().isEmpty)
            #expect(try await Self.webhookEvents(fixture).isEmpty)
        }
    }

    @Test(
        "a webhook's page lists its failed deliveries; Retry sends one again, refused with 409 while it is being sent")
    func deliveriesAndRetry() async throws {
        try await withSignIn(configure: Self.loopback) { fixture in
            var browser = try await Self.admin(fixture)
            _ = try await Self.register(&browser, fixture, url: "http://127.0.0.1:9/closed", events: "admin.*")
            let id = try #require(try await fixture.provider.store.webhooks().first?.id)
            fixture.clock.advance(by: 1)
            let page = try await browser.send(fixture.client, "/admin/console/webhook?id=\(id)")
            let rotated = try await browser.submit(
                fixture.client, page, to: "/admin/console/webhook/rotate-secret", [("id", id)])
            let newSecret = try #require(Self.secret(in: rotated))
            #expect(rotated.status == .ok && newSecret.hasPrefix("whsec_"))
            var seen: [String: Date] = [:]
            await fixture.provider.webhookWorker.pass(seen: &seen)

            let listed = try await browser.send(fixture.client, "/admin/console/webhook?id=\(id)")
            #expect(!listed.body.contains(newSecret), "the secret is shown only once")
            let deliveries = try #require(
                try await fixture.provider.store.webhookDeliveries(webhookID: id, before: nil, limit: 10))
            let failed = try #require(deliveries.first { $0.status == .failed })
            #expect(listed.body.contains("<strong>\(failed.eventType)</strong> <code>\(failed.id)</code>"))
            #expect(listed.body.contains(#"<span class="delivery-status">failed</span> · 1 attempts"#))
            #expect(listed.body.contains("last answer connection_failed"))
            #expect(listed.body.contains(#"<input type="hidden" name="delivery" value="\#(failed.id)">"#))

            fixture.clock.advance(by: 1)
            let retried = try await browser.submit(
                fixture.client, listed, to: "/admin/console/webhook/retry", [("id", id), ("delivery", failed.id)])
            #expect(retried.status == .ok && retried.body.contains("The delivery is sent again."))
            #expect(retried.body.contains(#"<span class="delivery-status">pending</span>"#))
            let now = fixture.clock.now
            _ = try await fixture.provider.store.claimWebhookDeliveries(
                now: now, until: now + 60, claim: "worker", limit: 10)
            let busy = try await browser.submit(
                fixture.client, listed, to: "/admin/console/webhook/retry", [("id", id), ("delivery", failed.id)])
            #expect(busy.status == .conflict && busy.alert?.contains("being sent right now") == true)
            let unknown = try await browser.submit(
                fixture.client, listed, to: "/admin/console/webhook/retry", [("id", id), ("delivery", "msg_unknown")])
            #expect(unknown.status == .notFound)

            let events = try await Self.webhookEvents(fixture)
            #expect(
                events.map(\.type) == [
                    "admin.webhook_created", "admin.webhook_secret_rotated", "admin.webhook_delivery_retried",
                ])
            #expect(events.allSatisfy { $0.actor == fixture.user.id })
        }
    }

    @Test("an admin deletes a webhook from its page; an unknown one is 404")
    func delete() async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            _ = try await Self.register(&browser, fixture, url: "https://hooks.example/limen", events: "*")
            let id = try #require(try await fixture.provider.store.webhooks().first?.id)
            // Events of one second sort by their random ids: a second apart, they keep their order.
            fixture.clock.advance(by: 1)
            let page = try await browser.send(fixture.client, "/admin/console/webhook?id=\(id)")
            let deleted = try await browser.submit(
                fixture.client, page, to: "/admin/console/webhook/delete", [("id", id)])
            #expect(deleted.status == .ok && deleted.body.contains("The webhook is deleted."))
            #expect(try await fixture.provider.store.webhooks().isEmpty)
            let again = try await browser.submit(
                fixture.client, page, to: "/admin/console/webhook/delete", [("id", id)])
            #expect(again.status == .notFound)
            let missing = try await browser.send(fixture.client, "/admin/console/webhook?id=\(id)")
            #expect(missing.status == .notFound && missing.alert == "No webhook with this ID.")
            #expect(try await Self.webhookEvents(fixture).last?.type == "admin.webhook_deleted")
        }
    }

    @Test("a webhook form without its session's CSRF token changes nothing")
    func forgedForms() async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            _ = try await Self.register(&browser, fixture, url: "https://hooks.example/limen", events: "*")
            let before = try await fixture.provider.store.webhooks()
            let id = try #require(before.first?.id)
            for (path, form) in [
                ("/admin/console/webhooks", [("url", "https://evil.example/hook"), ("events", "*")]),
                ("/admin/console/webhook/rotate-secret", [("id", id)]),
                ("/admin/console/webhook/delete", [("id", id)]),
                ("/admin/console/webhook/retry", [("id", id), ("delivery", "msg_x")]),
            ] {
                for token in [nil, "forged"] {
                    let refused = try await browser.send(
                        fixture.client, path, method: .post, form: form + (token.map { [("csrf", $0)] } ?? []))
                    #expect(refused.status == .forbidden, "\(path) \(token ?? "no token")")
                }
            }
            #expect(try await fixture.provider.store.webhooks() == before)
            #expect(try await Self.webhookEvents(fixture).count == 1)
        }
    }

    @Test("the flows page lists each configured flow's nodes and fields; the schema page the profile fields")
    func configurationPages() async throws {
        try await withSignIn { fixture in
            var browser = try await Self.admin(fixture)
            let flows = try await browser.send(fixture.client, "/admin/console/flows")
            #expect(flows.status == .ok && flows.body.contains("<h1>Flows</h1>"))
            for flow in fixture.provider.flows.flows.values {
                #expect(flows.body.contains(#"<h2 id="flow-\#(flow.id)">\#(flow.id)</h2>"#))
            }
            #expect(flows.body.contains("PASSWORD <code>password</code>"))
            #expect(flows.body.contains("check_password"))
            #expect(!flows.body.contains("<script"))

            let empty = try await browser.send(fixture.client, "/admin/console/schema")
            #expect(empty.status == .ok && empty.body.contains("No profile fields are configured."))
            let schema = try ProfileSchema(
                parsing: .object([
                    "fields": .object([
                        "nickname": .object([
                            "type": .string("string"), "validation": .object(["max": .number(40)]),
                        ]),
                        "tier": .object(["type": .string("string"), "user_editable": .bool(false)]),
                    ])
                ]))
            try await schema.applyAsAdministered(to: fixture.provider.store, now: fixture.clock.now)
            fixture.provider.profileSchemas.forget()
            let shown = try await browser.send(fixture.client, "/admin/console/schema")
            #expect(shown.body.contains("<code>nickname</code>") && shown.body.contains("max 40"))
            #expect(shown.body.contains("edited by user and admins") && shown.body.contains("edited by admins only"))
            #expect(!shown.body.contains("No profile fields"))
        }
    }

    @Test("a non-admin sees no webhooks, flows or schema page and changes nothing")
    func nonAdmin() async throws {
        try await withSignIn { fixture in
            let totp = try await fixture.provider.enableTOTP(for: fixture.user, at: fixture.clock.now)
            var (browser, _) = try await AdminConsoleTests.consoleSignIn(fixture, totp: totp)
            for path in [
                "/admin/console/webhooks", "/admin/console/webhook?id=wh_x", "/admin/console/flows",
                "/admin/console/schema",
            ] {
                let refused = try await browser.send(fixture.client, path)
                #expect(refused.status == .forbidden && !refused.body.contains("<form method=\"post\""), "\(path)")
            }
            let page = try await browser.send(fixture.client, "/admin/console/webhooks")
            let posted = try await browser.submit(
                fixture.client, page, to: "/admin/console/webhooks", [("url", "https://x.example/h"), ("events", "*")])
            #expect(posted.status == .forbidden)
            #expect(try await fixture.provider.store.webhooks().isEmpty)
        }
    }
}
