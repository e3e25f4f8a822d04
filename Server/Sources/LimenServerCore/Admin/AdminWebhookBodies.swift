import Foundation
import LimenServerStorage

/// An event webhook as the admin API shows it: never its secret, except `secret` once, when it is made or rotated.
package struct AdminWebhookResource: Encodable, Sendable {
    let record: WebhookRecord
    let secret: String?

    /// The resource of `record`, with `secret` when it is to be shown (once).
    package init(_ record: WebhookRecord, secret: WebhookSecret? = nil) {
        self.record = record
        self.secret = secret?.rawValue
    }

    enum CodingKeys: String, CodingKey {
        case id, url, events, description, secret
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(record.id, forKey: .id)
        try container.encode(record.url, forKey: .url)
        try container.encode(record.events, forKey: .events)
        try container.encode(record.description, forKey: .description)
        try container.encode(record.createdAt.formatted(.iso8601), forKey: .createdAt)
        try container.encode(record.updatedAt.formatted(.iso8601), forKey: .updatedAt)
        try container.encodeIfPresent(secret, forKey: .secret)
    }
}

/// `GET /admin/webhooks`.
package struct AdminWebhookList: Encodable, Sendable {
    /// The webhooks, oldest first.
    package var webhooks: [AdminWebhookResource]

    /// Makes it of its parts.
    package init(webhooks: [AdminWebhookResource]) {
        self.webhooks = webhooks
    }
}

/// `POST /admin/webhooks/{id}/rotate-secret`: the new secret, shown once.
package struct AdminWebhookSecret: Encodable, Sendable {
    /// The `whsec_…` string.
    package var secret: String

    /// Makes it of its parts.
    package init(secret: WebhookSecret) {
        self.secret = secret.rawValue
    }
}

/// A delivery as `GET /admin/webhooks/{id}/deliveries` shows it: every member present (`null` when absent), times in
/// RFC 3339.
package struct AdminWebhookDeliveryResource: Encodable, Sendable {
    let record: WebhookDeliveryRecord

    /// The resource of `record`.
    package init(_ record: WebhookDeliveryRecord) {
        self.record = record
    }

    enum CodingKeys: String, CodingKey {
        case id, status, attempts
        case event = "event_id"
        case type = "event_type"
        case createdAt = "created_at"
        case lastAttemptAt = "last_attempt_at"
        case lastStatusCode = "last_status_code"
        case lastError = "last_error"
        case nextAttemptAt = "next_attempt_at"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(record.id, forKey: .id)
        try container.encode(record.eventID, forKey: .event)
        try container.encode(record.eventType, forKey: .type)
        try container.encode(record.status.rawValue, forKey: .status)
        try container.encode(record.attempts, forKey: .attempts)
        try container.encode(record.createdAt.formatted(.iso8601), forKey: .createdAt)
        try container.encode(record.lastAttemptAt?.formatted(.iso8601), forKey: .lastAttemptAt)
        try container.encode(record.lastStatusCode, forKey: .lastStatusCode)
        try container.encode(record.lastError, forKey: .lastError)
        let next = record.status == .pending ? record.claimedUntil.formatted(.iso8601) : nil
        try container.encode(next, forKey: .nextAttemptAt)
    }
}

/// `GET /admin/webhooks/{id}/deliveries`: one page, newest first, and the link to the next page when there may be one.
package struct AdminWebhookDeliveryPage: Encodable, Sendable {
    /// The deliveries.
    package var deliveries: [AdminWebhookDeliveryResource]
    /// The next page's path, or `null`.
    package var next: String?

    /// Makes it of its parts.
    package init(deliveries: [AdminWebhookDeliveryResource], next: String?) {
        self.deliveries = deliveries
        self.next = next
    }

    enum CodingKeys: String, CodingKey {
        case deliveries, next
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(deliveries, forKey: .deliveries)
        try container.encode(next, forKey: .next)
    }
}
