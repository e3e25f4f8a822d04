import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Admin API: event webhooks")
struct AdminWebhookTests {
    static let created =
        #"{"url": "https://hooks.example/limen", "events": ["user.*", "admin.client_created"], "description": "CRM"}"#

    /// The `type`s of the admin events recorded, oldest first.
    private static func adminEvents(_ fixture: TokenFixture) async throws -> [SecurityEventRecord] {
        try await fixture.provider.store.securityEvents(SecurityEventFilter(), limit: 100).reversed()
            .filter { $0.type.hasPrefix("admin.webhook") }
    }

    @Test(
        "a webhook is created with a whsec_ secret shown once, listed, changed, rotated and deleted, each an admin event",
        arguments: TokenBackend.allCases)
    func lifecycle(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            let created = try await fixture.admin(.post, "/admin/webhooks", token: token, json: Self.created)
            #expect(created.status == .created)
            #expect(created.headers[.cacheControl] == "no-store")
            let id = try #require(created["id"])
            let secret = try #require(created["secret"])
            #expect(secret.hasPrefix("whsec_"))
            #expect(Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
            #expect(created.json["events"] == .array([.string("user.*"), .string("admin.client_created")]))

            let listed = try await fixture.admin(.get, "/admin/webhooks", token: token)
            #expect(listed.objects(in: "webhooks").map { $0["id"]?.stringValue } == [id])
            #expect(!listed.text.contains("secret"))
            let read = try await fixture.admin(.get, "/admin/webhooks/\(id)", token: token)
            #expect(read["description"] == "CRM" && read.json["secret"] == nil)

            // Events of one second sort by their random ids: a second apart, they keep their order.
            fixture.clock.advance(by: 1)
            let patched = try await fixture.admin(
                .patch, "/admin/webhooks/\(id)", token: token, json: #"{"events": ["*"], "description": "all"}"#)
            #expect(patched.status == .ok)
            #expect(patched.json["events"] == .array([.string("*")]))
            #expect(patched["url"] == "https://hooks.example/limen")

            fixture.clock.advance(by: 1)
            let rotated = try await fixture.admin(.post, "/admin/webhooks/\(id)/rotate-secret", token: token)
            let newSecret = try #require(rotated["secret"])
            #expect(newSecret.hasPrefix("whsec_") && newSecret != secret)
            let stored = try #require(try await fixture.provider.store.webhook(id: id))
            #expect(fixture.provider.webhooks.secret(of: stored)?.rawValue == newSecret)
            // Sealed at rest: the secret's text is not in the row.
            #expect(!String(decoding: stored.sealedSecret, as: UTF8.self).contains(String(newSecret.dropFirst(6))))

            fixture.clock.advance(by: 1)
            #expect(try await fixture.admin(.delete, "/admin/webhooks/\(id)", token: token).status == .noContent)
            #expect(try await fixture.admin(.get, "/admin/webhooks/\(id)", token: token).status == .notFound)
            #expect(try await fixture.admin(.delete, "/admin/webhooks/\(id)", token: token).status == .notFound)

            let events = try await Self.adminEvents(fixture)
            #expect(
                events.map(\.type) == [
                    "admin.webhook_created", "admin.webhook_updated", "admin.webhook_secret_rotated",
                    "admin.webhook_deleted",
                ])
            #expect(events.allSatisfy { $0.actor == "admin_token" && $0.details.contains(id) })
            #expect(events[1].details.contains("description,events"))
            // The trail never holds a secret.
            #expect(!events.contains { $0.details.contains("whsec_") })
        }
    }

    @Test(
        "refused: an http URL without allow_http_webhooks, a non-loopback http URL, a URL with credentials, an unknown pattern, no patterns",
        arguments: [
            #"{"url": "http://127.0.0.1:9/hook", "events": ["*"]}"#,
            #"{"url": "https://user:pass@hooks.example/", "events": ["*"]}"#,
            #"{"url": "ftp://hooks.example/", "events": ["*"]}"#,
            #"{"url": "https://hooks.example/", "events": ["usr.*"]}"#,
            #"{"url": "https://hooks.example/", "events": ["user.signed_out"]}"#,
            #"{"url": "https://hooks.example/", "events": []}"#,
            #"{"url": "https://hooks.example/", "events": ["*"], "secret": "whsec_AAAA"}"#,
        ])
    func refusedBodies(_ body: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let refused = try await fixture.admin(.post, "/admin/webhooks", token: token, json: body)
            #expect(refused.status == .badRequest)
            #expect(refused["error"] == "invalid_request")
            #expect(try await fixture.provider.store.webhooks().isEmpty)
        }
    }

    @Test("with allow_http_webhooks a loopback http URL is taken, any other http URL still refused")
    func httpLoopbackWhenAllowed() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.webhooks.allowsHTTPLoopback = true }
        try await TokenFixture.run(configure: configure) { fixture in
            let token = try await fixture.installAdminToken()
            for (url, status) in [
                ("http://127.0.0.1:9/hook", HTTPResponse.Status.created), ("http://localhost:9/", .created),
                ("http://hooks.example/", .badRequest), ("http://10.0.0.1/", .badRequest),
            ] {
                let response = try await fixture.admin(
                    .post, "/admin/webhooks", token: token, json: #"{"url": "\#(url)", "events": ["*"]}"#)
                #expect(response.status == status, "\(url)")
            }
        }
    }

    @Test(
        "without the admin token every webhook route is refused",
        arguments: [
            (HTTPRequest.Method.get, "/admin/webhooks"), (.post, "/admin/webhooks"), (.get, "/admin/webhooks/wh_x"),
            (.patch, "/admin/webhooks/wh_x"), (.delete, "/admin/webhooks/wh_x"),
            (.post, "/admin/webhooks/wh_x/rotate-secret"),
            (.get, "/admin/webhooks/wh_x/deliveries"), (.post, "/admin/webhooks/wh_x/deliveries/msg_x/retry"),
        ])
    func needsToken(_ method: HTTPRequest.Method, _ path: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            for presented in [nil, "not-the-token"] {
                let refused = try await fixture.admin(method, path, token: presented, json: Self.created)
                #expect(refused.status == .unauthorized)
            }
            #expect(try await fixture.provider.store.webhooks().isEmpty)
        }
    }

    @Test(
        "deliveries are listed newest first a page at a time with their answers, and a failed one is sent again",
        arguments: TokenBackend.allCases)
    func deliveriesAndRetry(_ backend: TokenBackend) async throws {
        let configure: (inout ServerConfiguration) -> Void = {
            $0.webhooks.allowsHTTPLoopback = true
            $0.metricsAccess = .everyone
            // No second attempt: a refused connection fails the delivery at once.
            $0.webhooks.retries = WebhookRetrySchedule(firstBackoff: 1, maximumBackoff: 1, window: 0)
        }
        try await TokenFixture.run(on: backend, configure: configure) { fixture in
            let token = try await fixture.installAdminToken()
            let created = try await fixture.admin(
                .post, "/admin/webhooks", token: token,
                json: #"{"url": "http://127.0.0.1:9/closed", "events": ["user.*", "admin.user_created"]}"#)
            let id = try #require(created["id"])
            _ = try await fixture.admin(
                .post, "/admin/users", token: token,
                json: #"{"email": "grace@example.com", "password": "correct horse battery"}"#)
            ServerMetrics.bootstrap()
            var seen: [String: Date] = [:]
            await fixture.provider.webhookWorker.pass(seen: &seen)
            let metrics = try await fixture.admin(.get, "/metrics", token: nil)
            #expect(metrics.text.contains(#"limen_webhook_deliveries_total{outcome="failed"}"#), "\(metrics.text)")

            let first = try await fixture.admin(.get, "/admin/webhooks/\(id)/deliveries?limit=1", token: token)
            #expect(first.status == .ok)
            let shown = first.objects(in: "deliveries")
            #expect(shown.count == 1)
            #expect(shown.first?["status"]?.stringValue == "failed")
            #expect(shown.first?["attempts"] == .number(1))
            #expect(shown.first?["last_error"]?.stringValue == "connection_failed")
            let next = try #require(first["next"])
            let second = try await fixture.admin(.get, next, token: token)
            #expect(second.objects(in: "deliveries").count == 1)
            #expect(second.json["next"] == .null)
            let types = Set((shown + second.objects(in: "deliveries")).compactMap { $0["event_type"]?.stringValue })
            #expect(types == ["user.created", "admin.user_created"])

            let delivery = try #require(shown.first?["id"]?.stringValue)
            fixture.clock.advance(by: 1)
            let retried = try await fixture.admin(
                .post, "/admin/webhooks/\(id)/deliveries/\(delivery)/retry", token: token)
            #expect(retried.status == .accepted)
            #expect(retried["status"] == "pending")
            #expect(try await Self.adminEvents(fixture).last?.type == "admin.webhook_delivery_retried")
            // While a worker is sending it, a retry is refused and records nothing.
            let now = fixture.clock.now
            let claimed = try await fixture.provider.store.claimWebhookDeliveries(
                now: now, until: now + 60, claim: "worker", limit: 10)
            #expect(claimed.map(\.id).contains(delivery))
            let busy = try await fixture.admin(
                .post, "/admin/webhooks/\(id)/deliveries/\(delivery)/retry", token: token)
            #expect(busy.status == .conflict && busy["error"] == "conflict")
            #expect(
                try await Self.adminEvents(fixture).filter { $0.type == "admin.webhook_delivery_retried" }.count == 1)

            for path in [
                "/admin/webhooks/\(id)/deliveries/msg_unknown/retry",
                "/admin/webhooks/wh_unknown/deliveries/\(delivery)/retry",
            ] {
                #expect(try await fixture.admin(.post, path, token: token).status == .notFound)
            }
            #expect(
                try await fixture.admin(.get, "/admin/webhooks/wh_unknown/deliveries", token: token).status == .notFound
            )
            #expect(
                try await fixture.admin(.get, "/admin/webhooks/\(id)/deliveries?limit=0", token: token).status
                    == .badRequest)
        }
    }
}
