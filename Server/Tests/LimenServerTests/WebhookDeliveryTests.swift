import Crypto
import Foundation
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A store, the webhooks over it and a worker posting to real receivers, on a clock that starts at the real time (the
/// receiver's library refuses timestamps more than five minutes away) and that the test moves to reach a retry.
struct WebhookRig {
    let store: any Store
    let clock: TestNow
    let webhooks: Webhooks
    let worker: WebhookWorker
    let recorder: SecurityEventRecorder

    /// A quick schedule: 10 s, doubling up to 20 s, for a minute.
    static let schedule = WebhookRetrySchedule(firstBackoff: 10, maximumBackoff: 20, window: 60)

    init(store: any Store, clock: TestNow, keys: DerivedKeys, timeout: Duration = .seconds(2)) {
        let now: @Sendable () -> Date = { clock.now }
        let recorder = SecurityEventRecorder(now: now)
        let webhooks = Webhooks(store: store, keys: keys, events: recorder, allowsHTTPLoopback: true, now: now)
        (self.store, self.clock, self.webhooks, self.recorder) = (store, clock, webhooks, recorder)
        worker = WebhookWorker(
            dispatcher: WebhookDispatcher(webhooks: webhooks, schedule: Self.schedule, now: now),
            transport: WebhookHTTPTransport(trustedCAFile: nil), timeout: timeout, concurrency: 4, now: now)
    }

    /// Runs `body` with a rig over a fresh store of `kind`.
    static func with(
        _ kind: StoreUnderTest, timeout: Duration = .seconds(2), _ body: (WebhookRig) async throws -> Void
    ) async throws {
        try await kind.withStore { store in
            let keys = DerivedKeys(masterKey: MasterKey(key: SymmetricKey(size: .bits256)))
            try await body(WebhookRig(store: store, clock: realClock(), keys: keys, timeout: timeout))
        }
    }

    /// A test clock at the real time, in whole seconds (as the stores keep times).
    static func realClock() -> TestNow {
        TestNow(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    /// Registers a webhook to `peer` for `events` (by default `user.*`, not the `admin.webhook_created` of its own
    /// registration), and gives the peer its secret.
    @discardableResult
    func register(_ peer: StandardWebhooksPeer, events: [String] = ["user.*"]) async throws -> WebhookRecord {
        let (webhook, secret) = try await webhooks.create(
            url: peer.url, events: events, description: "test", origin: .commandLine)
        try peer.writeSecret(secret)
        return webhook
    }

    /// Writes an event of `type` about `user`, now.
    func record(_ type: SecurityEventType, user: String = "user-1") async throws {
        try await store.insertSecurityEvents(recorder.records([SecurityEvent(type, user: user)], from: RequestOrigin()))
    }

    /// One pass of the worker: dispatch, then send what is due.
    @discardableResult
    func pass() async -> Int {
        var seen: [String: Date] = [:]
        return await worker.pass(seen: &seen)
    }

    /// The webhook's deliveries, newest first.
    func deliveries(_ webhook: WebhookRecord) async throws -> [WebhookDeliveryRecord] {
        try await store.webhookDeliveries(webhookID: webhook.id, before: nil, limit: 100)
    }
}

@Suite(
    "Event webhooks delivered to a receiver that verifies them with the standardwebhooks library",
    .enabled(if: StandardWebhooksPeer.unavailableReason == nil, "python3 cannot import standardwebhooks"))
struct WebhookDeliveryTests {
    @Test(
        "a matching event arrives once, signed, with its type, timestamp and the event as data; others do not",
        arguments: StoreUnderTest.allCases)
    func delivered(_ kind: StoreUnderTest) async throws {
        try await WebhookRig.with(kind) { rig in
            try await StandardWebhooksPeer.with { peer in
                let webhook = try await rig.register(peer, events: ["user.*"])
                try await rig.record(.userCreated, user: "ada")
                try await rig.record(.adminClientCreated)
                #expect(await rig.pass() == 1)
                #expect(await rig.pass() == 0)
                let received = try peer.received()
                try #require(received.count == 1)
                let (id, payload) = received[0]
                #expect(payload["type"]?.stringValue == "user.created")
                let data = try #require(payload["data"]?.objectValue)
                #expect(data["type"]?.stringValue == "user.created")
                #expect(data["user"]?.stringValue == "ada")
                #expect(payload["timestamp"]?.stringValue == data["time"]?.stringValue)
                let delivery = try #require(try await rig.deliveries(webhook).first)
                #expect(delivery.id == id && delivery.id.hasPrefix("msg_"))
                #expect(delivery.status == .delivered && delivery.attempts == 1 && delivery.lastStatusCode == 204)
                #expect(peer.answers() == ["204"])
            }
        }
    }

    @Test(
        "a receiver answering 500 is tried again once the back-off has passed, then the event is delivered",
        arguments: StoreUnderTest.allCases)
    func retriedAfterServerError(_ kind: StoreUnderTest) async throws {
        try await WebhookRig.with(kind) { rig in
            try await StandardWebhooksPeer.with(answers: ["500"]) { peer in
                let webhook = try await rig.register(peer)
                try await rig.record(.userSignedIn)
                #expect(await rig.pass() == 0)
                let pending = try #require(try await rig.deliveries(webhook).first)
                #expect(pending.status == .pending && pending.lastStatusCode == 500)
                #expect(pending.claimedUntil == rig.clock.now.addingTimeInterval(10))
                rig.clock.advance(by: 9)
                #expect(await rig.pass() == 0)
                #expect(peer.answers() == ["500"])
                rig.clock.advance(by: 1)
                #expect(await rig.pass() == 1)
                #expect(peer.answers() == ["500", "204"])
                #expect(try peer.received().map(\.id) == [pending.id])
                #expect(try await rig.deliveries(webhook).first?.attempts == 2)
            }
        }
    }

    @Test(
        "failed at once: a 400, a 401 and a redirect, which is not followed",
        arguments: ["400", "401", "302"])
    func failedAtOnce(_ answer: String) async throws {
        try await WebhookRig.with(.sqliteInMemory) { rig in
            try await StandardWebhooksPeer.with(answers: [answer]) { peer in
                let webhook = try await rig.register(peer)
                try await rig.record(.userDeleted)
                #expect(await rig.pass() == 1)
                let failed = try #require(try await rig.deliveries(webhook).first)
                #expect(failed.status == .failed && failed.lastStatusCode == Int(answer))
                rig.clock.advance(by: 3600)
                #expect(await rig.pass() == 0)
                #expect(peer.answers() == [answer])
            }
        }
    }

    @Test("a receiver that never answers times out, and the delivery is tried again")
    func hangingReceiver() async throws {
        try await WebhookRig.with(.sqliteInMemory, timeout: .seconds(1)) { rig in
            try await StandardWebhooksPeer.with(answers: ["hang"]) { peer in
                let webhook = try await rig.register(peer)
                try await rig.record(.userLockedOut)
                #expect(await rig.pass() == 0)
                let pending = try #require(try await rig.deliveries(webhook).first)
                #expect(pending.status == .pending && pending.lastError == "timeout" && pending.lastStatusCode == nil)
                rig.clock.advance(by: 10)
                #expect(await rig.pass() == 1)
                #expect(peer.answers() == ["hang", "204"])
            }
        }
    }

    @Test("a delivery still failing when its window ends is marked failed")
    func windowEnds() async throws {
        try await WebhookRig.with(.sqliteInMemory) { rig in
            try await StandardWebhooksPeer.with(answers: Array(repeating: "503", count: 10)) { peer in
                let webhook = try await rig.register(peer)
                try await rig.record(.userVerified)
                // Attempts at 0, 10, 30 and 50 s; the next would be at 70 s, after the 60 s window.
                for wait in [0, 10, 20, 20] as [TimeInterval] {
                    rig.clock.advance(by: wait)
                    await rig.pass()
                }
                let failed = try #require(try await rig.deliveries(webhook).first)
                #expect(failed.status == .failed && failed.attempts == 4 && failed.lastStatusCode == 503)
                rig.clock.advance(by: 600)
                await rig.pass()
                #expect(peer.answers().count == 4)
            }
        }
    }

    @Test("after the secret is rotated, deliveries are signed with the new one")
    func rotatedSecret() async throws {
        try await WebhookRig.with(.sqliteInMemory) { rig in
            try await StandardWebhooksPeer.with { peer in
                let webhook = try await rig.register(peer)
                try await rig.record(.userCreated)
                #expect(await rig.pass() == 1)
                let rotated = try #require(try await rig.webhooks.rotateSecret(id: webhook.id, origin: .commandLine))
                try peer.writeSecret(rotated)
                try await rig.record(.userDeleted)
                #expect(await rig.pass() == 1)
                #expect(peer.answers() == ["204", "204"])
                #expect(try peer.received().count == 2)
            }
        }
    }

    @Test("a delivery pending when the server stops is delivered after a restart on the same database")
    func survivesRestart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keys = DerivedKeys(masterKey: MasterKey(key: SymmetricKey(size: .bits256)))
        let clock = WebhookRig.realClock()
        try await StandardWebhooksPeer.with(answers: ["503"]) { peer in
            let first = try await SQLiteStore.open(path: directory.path + "/limen.sqlite")
            try await first.migrate()
            let webhook = try await withStopping(first, stop: { await $0.close() }) { store in
                let rig = WebhookRig(store: store, clock: clock, keys: keys)
                let webhook = try await rig.register(peer)
                try await rig.record(.userPasswordChanged)
                await rig.pass()
                return webhook
            }
            let second = try await SQLiteStore.open(path: directory.path + "/limen.sqlite")
            try await withStopping(second, stop: { await $0.close() }) { store in
                let rig = WebhookRig(store: store, clock: clock, keys: keys)
                let pending = try await rig.deliveries(webhook).first
                #expect(pending?.status == .pending)
                clock.advance(by: 10)
                #expect(await rig.pass() == 1)
                #expect(peer.answers() == ["503", "204"])
            }
        }
    }

    @Test("two workers on one database send each delivery once", arguments: StoreUnderTest.allCases)
    func twoWorkers(_ kind: StoreUnderTest) async throws {
        try await WebhookRig.with(kind) { rig in
            try await StandardWebhooksPeer.with { peer in
                try await rig.register(peer)
                for index in 0..<12 { try await rig.record(.userSignedIn, user: "user-\(index)") }
                var seen: [String: Date] = [:]
                try await rig.worker.dispatcher.dispatch(seen: &seen)
                let other = WebhookWorker(
                    dispatcher: rig.worker.dispatcher, transport: rig.worker.transport, concurrency: 4,
                    now: { rig.clock.now })
                async let first = rig.worker.deliverDue()
                async let second = other.deliverDue()
                #expect(await first + second == 12)
                let ids = try peer.received().map(\.id)
                #expect(ids.count == 12 && Set(ids).count == 12)
                #expect(peer.answers().count == 12)
            }
        }
    }
}
