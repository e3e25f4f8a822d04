import Foundation
import LimenServerStorage
import LimenWire

/// Turns new security events into deliveries: reads the trail after its cursor (kept in the store, so a restart or
/// another node goes on from there), makes one delivery per matching webhook, then moves the cursor.
///
/// Why a reader and not a delivery row written with each event: events are written by the store methods of the
/// changes they record (one statement in PostgreSQL, a savepoint in SQLite's group commit), on every hot path; adding
/// a read of the webhooks and an insert per webhook there would cost each sign-in, and tie it to a table it has no
/// business with. The reader costs the hot paths nothing and is as durable: the events are committed, the cursor only
/// moves once their deliveries are.
///
/// A transaction may commit an event stamped a little before one already read (another node, a group commit), so each
/// pass reads again from ``overlap`` before the cursor; a delivery is unique per webhook and event, so reading an event
/// twice, on one node or on two, makes it once.
package struct WebhookDispatcher: Sendable {
    /// How far before the cursor each pass reads again.
    static let overlap: TimeInterval = 10
    /// Events read per query.
    static let pageSize = 200

    /// The webhooks and their store.
    package let webhooks: Webhooks
    /// How long a delivery is retried.
    package let schedule: WebhookRetrySchedule
    private let now: @Sendable () -> Date

    /// A dispatcher over `webhooks`.
    package init(webhooks: Webhooks, schedule: WebhookRetrySchedule, now: @escaping @Sendable () -> Date) {
        (self.webhooks, self.schedule, self.now) = (webhooks, schedule, now)
    }

    /// Makes the deliveries of every event written since the last pass; returns how many it made (a delivery made
    /// again is counted again). `seen` holds the events this node already handed on, so the overlap is not written
    /// again; it is pruned to the overlap.
    @discardableResult
    package func dispatch(seen: inout [String: Date]) async throws(StorageError) -> Int {
        let store = webhooks.store
        let hooks = try await store.webhooks()
        let started = now()
        guard let oldest = hooks.map(\.createdAt).min() else {
            try await store.advanceWebhookDispatchCursor(to: started.addingTimeInterval(-Self.overlap))
            return 0
        }
        let cursor = max(try await store.webhookDispatchCursor() ?? oldest, oldest)
        var position = SecurityEventPosition(time: cursor.addingTimeInterval(-Self.overlap), id: "")
        var made = 0
        while true {
            let events = try await store.securityEvents(after: position, limit: Self.pageSize)
            let fresh = events.filter { seen[$0.id] == nil }
            let deliveries = fresh.flatMap { event in
                hooks.filter { Self.receives($0, event) }.map { delivery(of: event, to: $0) }
            }
            try await store.insertWebhookDeliveries(deliveries)
            made += deliveries.count
            for event in fresh { seen[event.id] = event.time }
            guard let last = events.last else { break }
            position = SecurityEventPosition(time: last.time, id: last.id)
            if events.count < Self.pageSize { break }
        }
        try await store.advanceWebhookDispatchCursor(to: position.time)
        let horizon = position.time.addingTimeInterval(-2 * Self.overlap)
        seen = seen.filter { $0.value >= horizon }
        return made
    }

    /// Whether `webhook` receives `event`: written after the webhook was, of a type one of its patterns selects.
    static func receives(_ webhook: WebhookRecord, _ event: SecurityEventRecord) -> Bool {
        event.time >= webhook.createdAt
            && webhook.events.contains { WebhookEventPattern(rawValue: $0)?.matches(event.type) ?? false }
    }

    private func delivery(of event: SecurityEventRecord, to webhook: WebhookRecord) -> WebhookDeliveryRecord {
        let made = now()
        return WebhookDeliveryRecord(
            id: Self.deliveryID(at: made), webhookID: webhook.id, eventID: event.id, eventType: event.type,
            body: Self.body(of: event), claimedUntil: made, createdAt: made,
            retryUntil: made.addingTimeInterval(schedule.window))
    }

    /// A delivery's id: `msg_`, its time in milliseconds in fixed-width hex (so ids sort by time), and 12 random bytes.
    static func deliveryID(at time: Date) -> String {
        let milliseconds = String(UInt64(max(time.timeIntervalSince1970 * 1000, 0)), radix: 16)
        return "msg_" + String(repeating: "0", count: max(12 - milliseconds.count, 0)) + milliseconds + "_"
            + RandomToken.make(byteCount: 12)
    }

    /// The body posted for `event` (Standard Webhooks' payload structure): its `type`, its `timestamp` (RFC 3339), and
    /// as `data` the event as `GET /admin/events` shows it.
    static func body(of event: SecurityEventRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let payload = WebhookPayload(
            type: event.type, timestamp: event.time.formatted(.iso8601), data: AdminEventResource(event))
        return String(decoding: (try? encoder.encode(payload)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The body of a webhook's POST.
struct WebhookPayload: Encodable {
    /// The event's type.
    var type: String
    /// When it happened, RFC 3339.
    var timestamp: String
    /// The event.
    var data: AdminEventResource
}
