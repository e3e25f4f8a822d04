import Foundation
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The webhook tables: one delivery per webhook and event, claimed by one worker at a time")
struct WebhookStoreTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    static func webhook(_ id: String) -> WebhookRecord {
        WebhookRecord(
            id: id, url: "https://hooks.example/\(id)", events: ["*"], description: "", sealedSecret: Data([1]),
            createdAt: start, updatedAt: start)
    }

    static func delivery(_ id: String, webhook: String = "wh_1", event: String) -> WebhookDeliveryRecord {
        WebhookDeliveryRecord(
            id: id, webhookID: webhook, eventID: event, eventType: "user.created", body: "{}", claimedUntil: start,
            createdAt: start, retryUntil: start + 60)
    }

    @Test(
        "the same event is one delivery; a claim holds it until finished by its holder; none for a deleted webhook",
        arguments: StoreUnderTest.allCases)
    func claims(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { store in
            try await store.insertWebhook(Self.webhook("wh_1"), recording: [])
            try await store.insertWebhookDeliveries([Self.delivery("msg_1", event: "e1")])
            try await store.insertWebhookDeliveries([
                Self.delivery("msg_again", event: "e1"), Self.delivery("msg_gone", webhook: "wh_none", event: "e2"),
            ])
            #expect(try await store.webhookDeliveries(webhookID: "wh_1", before: nil, limit: 10).map(\.id) == ["msg_1"])

            let now = Self.start
            let claimed = try await store.claimWebhookDeliveries(now: now, until: now + 80, claim: "a", limit: 5)
            #expect(claimed.map(\.id) == ["msg_1"] && claimed[0].attempts == 1)
            #expect(
                try await store.claimWebhookDeliveries(now: now + 79, until: now + 200, claim: "b", limit: 5).isEmpty)
            let retry = WebhookAttemptRecord(
                status: .pending, at: now, nextAttemptAt: now + 10, statusCode: 503, error: nil)
            #expect(try await !store.finishWebhookDelivery(id: "msg_1", claim: "b", retry))
            // Being sent: the admin API's retry leaves it alone.
            #expect(
                try await store.retryWebhookDelivery(
                    id: "msg_1", webhookID: "wh_1", now: now, retryUntil: now + 60, recording: []) == .inFlight)
            #expect(try await store.finishWebhookDelivery(id: "msg_1", claim: "a", retry))
            #expect(try await store.claimWebhookDeliveries(now: now + 9, until: now + 90, claim: "c", limit: 5).isEmpty)
            let again = try await store.claimWebhookDeliveries(now: now + 10, until: now + 90, claim: "c", limit: 5)
            #expect(again.first?.attempts == 2)
            let failed = WebhookAttemptRecord(
                status: .failed, at: now + 10, nextAttemptAt: now + 10, statusCode: 400, error: nil)
            #expect(try await store.finishWebhookDelivery(id: "msg_1", claim: "c", failed))
            #expect(
                try await store.claimWebhookDeliveries(now: now + 999, until: now + 2000, claim: "d", limit: 5).isEmpty)
            let stored = try #require(try await store.webhookDeliveries(webhookID: "wh_1", before: nil, limit: 1).first)
            #expect(stored.status == .failed && stored.lastStatusCode == 400 && stored.lastAttemptAt == now + 10)

            let retried = try await store.retryWebhookDelivery(
                id: "msg_1", webhookID: "wh_1", now: now + 20, retryUntil: now + 80, recording: [])
            guard case .retried(let pending) = retried else {
                Issue.record("a failed delivery was not made pending again: \(retried)")
                return
            }
            #expect(pending.status == .pending && pending.retryUntil == now + 80)
            for (delivery, webhook) in [("msg_1", "wh_other"), ("msg_none", "wh_1")] {
                #expect(
                    try await store.retryWebhookDelivery(
                        id: delivery, webhookID: webhook, now: now + 20, retryUntil: now + 80, recording: [])
                        == .notFound)
            }
            #expect(
                try await store.claimWebhookDeliveries(now: now + 20, until: now + 99, claim: "e", limit: 5).count == 1)
        }
    }

    @Test(
        "deliveries are listed newest first from a cursor, swept once finished, and go with their webhook",
        arguments: StoreUnderTest.allCases)
    func listedSweptDeleted(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { store in
            try await store.insertWebhook(Self.webhook("wh_1"), recording: [])
            try await store.insertWebhookDeliveries((1...3).map { Self.delivery("msg_\($0)", event: "e\($0)") })
            #expect(
                try await store.webhookDeliveries(webhookID: "wh_1", before: nil, limit: 2).map(\.id) == [
                    "msg_3", "msg_2",
                ])
            #expect(
                try await store.webhookDeliveries(webhookID: "wh_1", before: "msg_2", limit: 2).map(\.id) == ["msg_1"])
            let claimed = try await store.claimWebhookDeliveries(
                now: Self.start, until: Self.start + 60, claim: "a", limit: 1)
            let delivered = WebhookAttemptRecord(
                status: .delivered, at: Self.start, nextAttemptAt: Self.start, statusCode: 200, error: nil)
            try await store.finishWebhookDelivery(id: try #require(claimed.first?.id), claim: "a", delivered)
            #expect(try await store.deleteFinishedWebhookDeliveries(before: Self.start) == 0)
            #expect(try await store.deleteFinishedWebhookDeliveries(before: Self.start + 1) == 1)
            #expect(try await store.webhookDeliveries(webhookID: "wh_1", before: nil, limit: 9).count == 2)
            #expect(try await store.deleteWebhook(id: "wh_1", recording: []))
            #expect(try await store.webhookDeliveries(webhookID: "wh_1", before: nil, limit: 9).isEmpty)
            #expect(try await !store.deleteWebhook(id: "wh_1", recording: []))
        }
    }

    @Test("the dispatch cursor only moves forward", arguments: StoreUnderTest.allCases)
    func cursor(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { store in
            #expect(try await store.webhookDispatchCursor() == nil)
            try await store.advanceWebhookDispatchCursor(to: Self.start + 10)
            try await store.advanceWebhookDispatchCursor(to: Self.start)
            #expect(try await store.webhookDispatchCursor() == Self.start + 10)
            try await store.advanceWebhookDispatchCursor(to: Self.start + 20)
            #expect(try await store.webhookDispatchCursor() == Self.start + 20)
        }
    }
}
