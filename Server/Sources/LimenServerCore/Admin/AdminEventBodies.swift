import Foundation
import LimenServerStorage

/// An event as `GET /admin/events` shows it: every member present (`null` when absent), `time` in RFC 3339, `details`
/// an object.
package struct AdminEventResource: Encodable, Sendable {
    let record: SecurityEventRecord

    /// The resource of `record`.
    package init(_ record: SecurityEventRecord) {
        self.record = record
    }

    enum CodingKeys: String, CodingKey {
        case id, type, time, user, client, actor, ip, details
        case userAgent = "user_agent"
        case requestID = "request_id"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(record.id, forKey: .id)
        try container.encode(record.type, forKey: .type)
        try container.encode(record.time.formatted(.iso8601), forKey: .time)
        try container.encode(record.user, forKey: .user)
        try container.encode(record.client, forKey: .client)
        try container.encode(record.actor, forKey: .actor)
        try container.encode(record.ip, forKey: .ip)
        try container.encode(record.userAgent, forKey: .userAgent)
        try container.encode(record.requestID, forKey: .requestID)
        let details = (try? JSONDecoder().decode([String: String].self, from: Data(record.details.utf8))) ?? [:]
        try container.encode(details, forKey: .details)
    }
}

/// `GET /admin/events`: one page, newest first, and the link to the next page when there may be one.
package struct AdminEventPage: Encodable, Sendable {
    package var events: [AdminEventResource]
    package var next: String?

    /// Makes it of its parts.
    package init(events: [AdminEventResource], next: String?) {
        self.events = events
        self.next = next
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(events, forKey: .events)
        try container.encode(next, forKey: .next)
    }

    enum CodingKeys: String, CodingKey {
        case events, next
    }
}
