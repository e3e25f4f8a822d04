import Foundation
import LimenServerStorage
import LimenWire

/// The event webhooks an operator registers through the admin API: checked (``WebhookURL``,
/// ``WebhookEventPattern``), their secrets made here, sealed at rest under a key derived from the master key, and each
/// change stored with its `admin.webhook_*` event.
///
/// ```swift
/// let (webhook, secret) = try await webhooks.create(
///     url: "https://hooks.example/limen", events: ["user.*"], description: "CRM", origin: origin)
/// ```
package struct Webhooks: Sendable {
    /// The longest description taken.
    static let maximumDescriptionLength = 500
    /// The most patterns a webhook takes.
    static let maximumPatterns = 64

    /// Where they are kept.
    package let store: any WebhookStore
    /// Whether loopback `http` URLs are taken (`allow_http_webhooks`).
    package let allowsHTTPLoopback: Bool
    private let seal: DerivedKeySeal
    private let events: SecurityEventRecorder
    private let now: @Sendable () -> Date

    /// The webhooks in `store`, sealing secrets with `keys`.
    package init(
        store: any WebhookStore, keys: DerivedKeys, events: SecurityEventRecorder, allowsHTTPLoopback: Bool,
        now: @escaping @Sendable () -> Date
    ) {
        (self.store, self.events, self.allowsHTTPLoopback, self.now) = (store, events, allowsHTTPLoopback, now)
        seal = DerivedKeySeal(keys: keys, purpose: .webhookSecret)
    }

    /// Registers a webhook; returns it and its secret (to be shown once).
    package func create(url: String, events patterns: [String], description: String?, origin: RequestOrigin)
        async throws(WebhookError) -> (WebhookRecord, WebhookSecret)
    {
        let created = now()
        let id = "wh_" + RandomToken.make(byteCount: 16)
        let secret = WebhookSecret.random()
        let webhook = WebhookRecord(
            id: id, url: try checkedURL(url), events: try checkedPatterns(patterns),
            description: try checkedDescription(description ?? ""), sealedSecret: try sealed(secret, id: id),
            createdAt: created, updatedAt: created)
        do {
            try await store.insertWebhook(webhook, recording: records(.adminWebhookCreated, id, origin))
        } catch {
            throw .storage(error)
        }
        return (webhook, secret)
    }

    /// Changes the members given; returns the webhook, or `nil` when there is none with `id`.
    package func update(
        id: String, url: String?, events patterns: [String]?, description: String?, origin: RequestOrigin
    ) async throws(WebhookError) -> WebhookRecord? {
        guard var webhook = try await self.webhook(id: id) else { return nil }
        var changed: [String] = []
        if let url {
            webhook.url = try checkedURL(url)
            changed.append("url")
        }
        if let patterns {
            webhook.events = try checkedPatterns(patterns)
            changed.append("events")
        }
        if let description {
            webhook.description = try checkedDescription(description)
            changed.append("description")
        }
        webhook.updatedAt = now()
        return try await save(webhook, recording: records(.adminWebhookUpdated, id, origin, changed: changed))
            ? webhook : nil
    }

    /// Replaces the secret of the webhook `id`; returns the new one (to be shown once), or `nil` when there is no such
    /// webhook. Deliveries signed from now on use it, retries of earlier ones too.
    package func rotateSecret(id: String, origin: RequestOrigin) async throws(WebhookError) -> WebhookSecret? {
        guard var webhook = try await self.webhook(id: id) else { return nil }
        let secret = WebhookSecret.random()
        webhook.sealedSecret = try sealed(secret, id: id)
        webhook.updatedAt = now()
        return try await save(webhook, recording: records(.adminWebhookSecretRotated, id, origin)) ? secret : nil
    }

    /// Removes the webhook `id` and its deliveries; returns whether it existed.
    package func delete(id: String, origin: RequestOrigin) async throws(WebhookError) -> Bool {
        do {
            return try await store.deleteWebhook(id: id, recording: records(.adminWebhookDeleted, id, origin))
        } catch {
            throw .storage(error)
        }
    }

    /// Sends the delivery `id` of webhook `webhook` again, as soon as a worker is free, retried for a new window;
    /// returns it, or `nil` when there is no such delivery or it is being sent.
    package func retryDelivery(id: String, webhook: String, schedule: WebhookRetrySchedule, origin: RequestOrigin)
        async throws(WebhookError) -> WebhookDeliveryRetry
    {
        let now = self.now()
        let records = events.records(
            [SecurityEvent(.adminWebhookDeliveryRetried, details: .webhookDelivery(id, webhook: webhook))],
            from: origin)
        do {
            return try await store.retryWebhookDelivery(
                id: id, webhookID: webhook, now: now, retryUntil: now.addingTimeInterval(schedule.window),
                recording: records)
        } catch {
            throw .storage(error)
        }
    }

    /// Every webhook, oldest first.
    package func all() async throws(WebhookError) -> [WebhookRecord] {
        do {
            return try await store.webhooks()
        } catch {
            throw .storage(error)
        }
    }

    /// Up to `limit` deliveries of the webhook `id`, newest first, older than `before` when given; `nil` when there is
    /// no such webhook.
    package func deliveries(of id: String, before: String?, limit: Int) async throws(WebhookError)
        -> [WebhookDeliveryRecord]?
    {
        guard try await webhook(id: id) != nil else { return nil }
        do {
            return try await store.webhookDeliveries(webhookID: id, before: before, limit: limit)
        } catch {
            throw .storage(error)
        }
    }

    /// The webhook `id`, if any.
    package func webhook(id: String) async throws(WebhookError) -> WebhookRecord? {
        do {
            return try await store.webhook(id: id)
        } catch {
            throw .storage(error)
        }
    }

    /// The secret `webhook` signs with, or `nil` when it does not open (altered, or another master key).
    package func secret(of webhook: WebhookRecord) -> WebhookSecret? {
        seal.open(webhook.sealedSecret, context: Self.context(webhook.id)).flatMap {
            WebhookSecret(rawValue: String(decoding: $0, as: UTF8.self))
        }
    }

    private func save(_ webhook: WebhookRecord, recording records: [SecurityEventRecord]) async throws(WebhookError)
        -> Bool
    {
        do {
            return try await store.updateWebhook(webhook, recording: records)
        } catch {
            throw .storage(error)
        }
    }

    private func records(
        _ type: SecurityEventType, _ id: String, _ origin: RequestOrigin, changed: [String] = []
    ) -> [SecurityEventRecord] {
        events.records([SecurityEvent(type, details: .webhook(id, changed: changed))], from: origin)
    }

    private func sealed(_ secret: WebhookSecret, id: String) throws(WebhookError) -> Data {
        do {
            return try seal.seal(Data(secret.rawValue.utf8), context: Self.context(id))
        } catch {
            throw .storage(.queryFailed("sealing a webhook secret failed"))
        }
    }

    private func checkedURL(_ url: String) throws(WebhookError) -> String {
        guard WebhookURL(url, allowHTTPLoopback: allowsHTTPLoopback) != nil else { throw .invalidURL }
        return url
    }

    private func checkedPatterns(_ patterns: [String]) throws(WebhookError) -> [String] {
        guard !patterns.isEmpty, patterns.count <= Self.maximumPatterns else { throw .noEvents }
        for pattern in patterns where WebhookEventPattern(rawValue: pattern) == nil {
            throw .unknownEventPattern(String(pattern.prefix(100)))
        }
        var seen = Set<String>()
        return patterns.filter { seen.insert($0).inserted }
    }

    private func checkedDescription(_ description: String) throws(WebhookError) -> String {
        guard description.count <= Self.maximumDescriptionLength else { throw .descriptionTooLong }
        return description
    }

    private static func context(_ id: String) -> String {
        "webhook-secret|\(id)"
    }
}
