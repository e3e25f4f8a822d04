import Foundation

/// An event webhook: where the server posts the security events whose types match ``events``, signed with its secret
/// (Standard Webhooks).
public struct WebhookRecord: Sendable, Equatable {
    /// Random and opaque (`wh_…`).
    public var id: String
    /// Where deliveries go: `https`, or loopback `http` when the server allows it.
    public var url: String
    /// The type patterns it receives: `*`, a prefix such as `user.*`, or an exact type.
    public var events: [String]
    /// What the operator wrote about it.
    public var description: String
    /// The signing secret (the `whsec_…` string), AES-GCM-sealed under a key derived from the master key.
    public var sealedSecret: Data
    /// When it was created: it receives the events from then on.
    public var createdAt: Date
    /// When it was last changed.
    public var updatedAt: Date

    /// Creates a record.
    public init(
        id: String, url: String, events: [String], description: String, sealedSecret: Data, createdAt: Date,
        updatedAt: Date
    ) {
        (self.id, self.url, self.events, self.description) = (id, url, events, description)
        (self.sealedSecret, self.createdAt, self.updatedAt) = (sealedSecret, createdAt, updatedAt)
    }
}

/// Where a delivery stands.
public enum WebhookDeliveryStatus: String, Sendable, Equatable, CaseIterable {
    /// Waiting for its first or next attempt.
    case pending
    /// A receiver answered `2xx`.
    case delivered
    /// Given up: a final refusal, or retries for the whole window failed.
    case failed
}

/// One event to be posted to one webhook: written by the dispatcher, claimed by one worker at a time for a lease.
public struct WebhookDeliveryRecord: Sendable, Equatable {
    /// Random and opaque (`msg_…`): the `webhook-id` header, the same on every attempt.
    public var id: String
    /// The webhook it goes to.
    public var webhookID: String
    /// The security event it carries.
    public var eventID: String
    /// The event's type.
    public var eventType: String
    /// The exact body posted (the event as JSON), fixed when the delivery is made.
    public var body: String
    /// Where it stands.
    public var status: WebhookDeliveryStatus
    /// Attempts made so far.
    public var attempts: Int
    /// Until when a worker holds it (also the time of the next attempt while pending).
    public var claimedUntil: Date
    /// Who holds it now (a random token per claim), so that only the holder finishes it.
    public var claim: String
    /// When it was made.
    public var createdAt: Date
    /// After this a failing delivery is no longer retried (24 hours after it was made, or retried by hand).
    public var retryUntil: Date
    /// When it was last attempted.
    public var lastAttemptAt: Date?
    /// The status code of the last answer, if one came.
    public var lastStatusCode: Int?
    /// Why the last attempt failed without an answer (`timeout`, `connection_failed`), if it did.
    public var lastError: String?

    /// Creates a record.
    public init(
        id: String, webhookID: String, eventID: String, eventType: String, body: String,
        status: WebhookDeliveryStatus = .pending, attempts: Int = 0, claimedUntil: Date, claim: String = "",
        createdAt: Date, retryUntil: Date, lastAttemptAt: Date? = nil, lastStatusCode: Int? = nil,
        lastError: String? = nil
    ) {
        (self.id, self.webhookID, self.eventID, self.eventType, self.body) = (id, webhookID, eventID, eventType, body)
        (self.status, self.attempts, self.claimedUntil, self.claim) = (status, attempts, claimedUntil, claim)
        (self.createdAt, self.retryUntil, self.lastAttemptAt) = (createdAt, retryUntil, lastAttemptAt)
        (self.lastStatusCode, self.lastError) = (lastStatusCode, lastError)
    }
}

/// What asking to send a delivery again found.
public enum WebhookDeliveryRetry: Sendable, Equatable {
    /// It is pending again, due now.
    case retried(WebhookDeliveryRecord)
    /// A worker holds it (it is being sent): it is left alone.
    case inFlight
    /// The webhook has no delivery of this ID.
    case notFound
}

/// How an attempt ended, as the worker records it.
public struct WebhookAttemptRecord: Sendable, Equatable {
    /// The delivery's new status.
    public var status: WebhookDeliveryStatus
    /// When the attempt was made.
    public var at: Date
    /// When to try again (while still pending).
    public var nextAttemptAt: Date
    /// The answer's status code, if one came.
    public var statusCode: Int?
    /// Why no answer came, if none did.
    public var error: String?

    /// Creates a record.
    public init(status: WebhookDeliveryStatus, at: Date, nextAttemptAt: Date, statusCode: Int?, error: String?) {
        (self.status, self.at, self.nextAttemptAt, self.statusCode, self.error) = (
            status, at, nextAttemptAt, statusCode, error
        )
    }
}

/// The event-webhooks part of the ``Store``: the admin API keeps the webhooks, the dispatcher turns events into
/// deliveries, workers on any node claim, send and finish them.
public protocol WebhookStore: Sendable {
    /// Adds `webhook`, with `events` in the same unit.
    func insertWebhook(_ webhook: WebhookRecord, recording events: [SecurityEventRecord]) async throws(StorageError)
    /// Every webhook, oldest first.
    func webhooks() async throws(StorageError) -> [WebhookRecord]
    /// The webhook `id`, if any.
    func webhook(id: String) async throws(StorageError) -> WebhookRecord?
    /// Replaces the webhook of the same id, with `events`; returns whether it existed.
    func updateWebhook(_ webhook: WebhookRecord, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    /// Removes the webhook `id` and its deliveries, with `events`; returns whether it existed.
    func deleteWebhook(id: String, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool

    /// Adds the deliveries that are not there yet (one per webhook and event: the same pair again is skipped).
    func insertWebhookDeliveries(_ deliveries: [WebhookDeliveryRecord]) async throws(StorageError)
    /// Claims the oldest `limit` pending deliveries that are due at `now` for `claim` until `until`, counting an attempt
    /// for each, in one statement. Two workers never claim the same delivery at once.
    func claimWebhookDeliveries(now: Date, until: Date, claim: String, limit: Int) async throws(StorageError)
        -> [WebhookDeliveryRecord]
    /// Records how the attempt of `claim` on delivery `id` ended, if `claim` still holds it; returns whether it did.
    @discardableResult
    func finishWebhookDelivery(id: String, claim: String, _ attempt: WebhookAttemptRecord) async throws(StorageError)
        -> Bool
    /// Up to `limit` deliveries of webhook `webhookID`, newest first, older than the delivery `before` when given.
    func webhookDeliveries(webhookID: String, before: String?, limit: Int) async throws(StorageError)
        -> [WebhookDeliveryRecord]
    /// Makes the delivery `id` of webhook `webhookID` pending again, due at `now`, retried until `retryUntil`, unless a
    /// worker holds it, with `events` (only when it was made pending).
    func retryWebhookDelivery(
        id: String, webhookID: String, now: Date, retryUntil: Date, recording events: [SecurityEventRecord]
    ) async throws(StorageError) -> WebhookDeliveryRetry
    /// Deletes the delivered and failed deliveries made before `date`; returns how many.
    @discardableResult
    func deleteFinishedWebhookDeliveries(before date: Date) async throws(StorageError) -> Int

    /// How far the dispatcher has read the security events (the time of the newest it handed on), if it has begun.
    func webhookDispatchCursor() async throws(StorageError) -> Date?
    /// Moves the dispatcher's cursor forward to `time` (never back).
    func advanceWebhookDispatchCursor(to time: Date) async throws(StorageError)
    /// Up to `limit` security events after `position` in the order they happened (oldest first): what the dispatcher
    /// reads.
    func securityEvents(after position: SecurityEventPosition, limit: Int) async throws(StorageError)
        -> [SecurityEventRecord]
}
