import Foundation
import LimenServerStorage
import LimenServerWire

/// The query of `GET /admin/events`: `type`, `user`, `client`, `since` and `until` (RFC 3339), `cursor` (the `next`
/// link's), `limit`. Every parameter is optional; one that is malformed is refused, never ignored.
package struct AdminEventQuery: Sendable, Equatable {
    /// Which events.
    package var filter: SecurityEventFilter
    /// How many at most.
    package var limit: Int

    /// Events per page when `limit` is absent.
    package static let defaultPageSize = 50
    /// The largest `limit`.
    package static let maximumPageSize = 500
    /// The parameters kept in the `next` link.
    static let filterNames = ["type", "user", "client", "since", "until", "limit"]

    /// The query `fields` spell, or why not.
    package init(_ fields: FormFields) throws(AdminError) {
        filter = SecurityEventFilter()
        if let type = fields.value(sent: "type") {
            guard SecurityEventType(rawValue: type) != nil else {
                throw .invalidRequest("type must be one of the event types, such as user.signed_in")
            }
            filter.type = type
        }
        filter.user = fields.value(sent: "user")
        filter.client = fields.value(sent: "client")
        filter.since = try Self.time(fields.value(sent: "since"), name: "since")
        filter.until = try Self.time(fields.value(sent: "until"), name: "until")
        if let cursor = fields.value(sent: "cursor") {
            guard let position = SecurityEventCursor.decode(cursor) else {
                throw .invalidRequest("cursor is not one this server made")
            }
            filter.before = position
        }
        limit = Self.defaultPageSize
        if let value = fields.value(sent: "limit") {
            guard let limit = Int(value), (1...Self.maximumPageSize).contains(limit) else {
                throw .invalidRequest("limit must be a whole number from 1 to \(Self.maximumPageSize)")
            }
            self.limit = limit
        }
    }

    /// The events of this query's page, newest first, read from `store`, and the query string of the page after it
    /// (``nextQuery(after:fields:)`` of `fields`, the query's own; `nil` on the last page). The admin API's and the
    /// console's events pages both read through it.
    package func page(
        in store: any SecurityEventStore, fields: FormFields
    ) async throws(StorageError) -> (events: [SecurityEventRecord], next: String?) {
        // One more than asked: whether it exists tells whether there is a next page.
        let events = try await store.securityEvents(filter, limit: limit + 1)
        let page = Array(events.prefix(limit))
        return (page, events.count > limit ? page.last.map { nextQuery(after: $0, fields: fields) } : nil)
    }

    /// The query string of the page after the one that ended at `last`: the same filters and limit, and its cursor.
    package func nextQuery(after last: SecurityEventRecord, fields: FormFields) -> String {
        var components = URLComponents()
        components.queryItems =
            Self.filterNames.compactMap { name in fields.value(sent: name).map { URLQueryItem(name: name, value: $0) } }
            + [
                URLQueryItem(
                    name: "cursor",
                    value: SecurityEventCursor.encode(SecurityEventPosition(time: last.time, id: last.id)))
            ]
        // A "+" (a time zone offset) would read as a space in a query.
        return (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }

    /// An RFC 3339 time, or why not.
    private static func time(_ value: String?, name: String) throws(AdminError) -> Date? {
        guard let value else { return nil }
        guard let date = try? Date(value, strategy: .iso8601) else {
            throw .invalidRequest("\(name) must be an RFC 3339 time, such as 2026-11-29T10:00:00Z")
        }
        return date
    }
}
