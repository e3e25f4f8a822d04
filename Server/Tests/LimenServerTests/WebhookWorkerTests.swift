import Crypto
import Foundation
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A webhook transport answering `200` at once, except to URLs ending in `/slow`: it holds those, as a receiver that
/// hangs, until every other expected POST was answered, or until the test's task is cancelled (its time limit: a worker
/// that waits for the held POST before sending the others fails the test instead of hanging it).
private actor HeldReceiverTransport: WebhookTransport {
    /// How many other POSTs the held one waits for.
    let others: Int
    /// The other POSTs answered so far.
    private var answered = 0
    /// How many other POSTs were answered while the held one waited.
    private(set) var answeredWhileHeld: Int?
    private var held: CheckedContinuation<Void, Never>?
    private var released = false

    init(others: Int) {
        self.others = others
    }

    func post(_ body: Data, headers: [(String, String)], to url: WebhookURL, timeout: Duration)
        async throws(WebhookSendError) -> Int
    {
        guard url.endpoint.target.hasSuffix("/slow") else {
            answered += 1
            if answered == others { release() }
            return 200
        }
        if answered < others {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    if released { continuation.resume() } else { held = continuation }
                }
            } onCancel: {
                Task { await self.release() }
            }
        }
        answeredWhileHeld = answered
        return 200
    }

    /// Lets the held POST answer (now, or at once when it comes).
    private func release() {
        released = true
        held?.resume()
        held = nil
    }
}

@Suite(
    "The webhook worker: one hanging receiver holds only its own slot",
    // A worker that waits for the held POST fails here; a working one ends as soon as the six are answered.
    .timeLimit(.minutes(5)))
struct WebhookWorkerTests {
    @Test("with two slots, six deliveries to a quick receiver are sent while a slow one holds its POST")
    func slowReceiverHoldsOnlyItsSlot() async throws {
        try await StoreUnderTest.sqliteInMemory.withStore { store in
            let clock = TestNow(Date(timeIntervalSince1970: 1_800_000_000))
            let now: @Sendable () -> Date = { clock.now }
            let keys = DerivedKeys(masterKey: MasterKey(key: SymmetricKey(size: .bits256)))
            let webhooks = Webhooks(
                store: store, keys: keys, events: SecurityEventRecorder(now: now), allowsHTTPLoopback: false, now: now)
            let (slow, _) = try await webhooks.create(
                url: "https://hooks.example/slow", events: ["*"], description: nil, origin: .commandLine)
            let (quick, _) = try await webhooks.create(
                url: "https://hooks.example/quick", events: ["*"], description: nil, origin: .commandLine)
            /// A delivery of event `event` to `webhook`, due at `due`.
            func delivery(_ event: String, to webhook: WebhookRecord, due: Date) -> WebhookDeliveryRecord {
                WebhookDeliveryRecord(
                    id: "msg_\(event)", webhookID: webhook.id, eventID: event, eventType: "user.created", body: "{}",
                    claimedUntil: due, createdAt: due, retryUntil: due + 60)
            }
            // The slow receiver's delivery is the first claimed.
            try await store.insertWebhookDeliveries(
                [delivery("held", to: slow, due: clock.now - 1)]
                    + (1...6).map { delivery("quick\($0)", to: quick, due: clock.now) })
            let transport = HeldReceiverTransport(others: 6)
            let worker = WebhookWorker(
                dispatcher: WebhookDispatcher(webhooks: webhooks, schedule: WebhookRig.schedule, now: now),
                transport: transport, concurrency: 2, now: now)

            #expect(await worker.deliverDue() == 7)
            #expect(await transport.answeredWhileHeld == 6)
            let delivered = try await store.webhookDeliveries(webhookID: quick.id, before: nil, limit: 10)
            #expect(delivered.count == 6 && delivered.allSatisfy { $0.status == .delivered })
        }
    }
}
