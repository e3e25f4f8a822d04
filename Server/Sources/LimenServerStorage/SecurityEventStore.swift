import Foundation

/// One stored security event (the audit trail): who did what, when, from where. Built by `LimenServerCore`'s
/// `SecurityEvent`, whose typed details keep passwords, codes, tokens and secrets out; the store keeps the strings as
/// given.
public struct SecurityEventRecord: Sendable, Equatable {
    /// Random and opaque; with ``time`` the order of the trail.
    public var id: String
    /// The event's type, a stable string such as `user.signed_in`.
    public var type: String
    /// When it happened (whole seconds).
    public var time: Date
    /// The subject of the user it concerns, if any.
    public var user: String?
    /// The client it concerns, if any.
    public var client: String?
    /// Who caused it when not the user themselves (`admin`, for the admin token).
    public var actor: String?
    /// The address the request came from.
    public var ip: String?
    /// The request's `User-Agent`.
    public var userAgent: String?
    /// The request's id (`X-Request-Id`).
    public var requestID: String?
    /// A JSON object of the event's details.
    public var details: String

    /// Creates a record.
    public init(
        id: String, type: String, time: Date, user: String?, client: String?, actor: String?, ip: String?,
        userAgent: String?, requestID: String?, details: String
    ) {
        self.id = id
        self.type = type
        self.time = time
        self.user = user
        self.client = client
        self.actor = actor
        self.ip = ip
        self.userAgent = userAgent
        self.requestID = requestID
        self.details = details
    }
}

/// Which events a page of the trail holds: every filter is optional; newest first, from ``before`` on.
public struct SecurityEventFilter: Sendable, Equatable {
    /// Only events of this type.
    public var type: String?
    /// Only events concerning this user.
    public var user: String?
    /// Only events concerning this client.
    public var client: String?
    /// Only events at or after this time.
    public var since: Date?
    /// Only events before this time.
    public var until: Date?
    /// Only events older than this position (the last event of the previous page), newest first.
    public var before: SecurityEventPosition?

    /// Creates a filter.
    public init(
        type: String? = nil, user: String? = nil, client: String? = nil, since: Date? = nil, until: Date? = nil,
        before: SecurityEventPosition? = nil
    ) {
        self.type = type
        self.user = user
        self.client = client
        self.since = since
        self.until = until
        self.before = before
    }
}

/// An event's place in the trail, newest first: its time, then its id.
public struct SecurityEventPosition: Sendable, Equatable {
    /// The event's time.
    public var time: Date
    /// The event's id.
    public var id: String

    /// Creates a position.
    public init(time: Date, id: String) {
        self.time = time
        self.id = id
    }
}

/// The security events part of the ``Store``: reading the trail and sweeping it. Events are written by the store
/// methods of the changes they record, in the same unit as the change (``UserStore/insertUserIfAbsent(_:recording:)``
/// and its kind), or alone by ``insertSecurityEvents(_:)`` for what changes nothing else (a failed sign-in).
public protocol SecurityEventStore: Sendable {
    /// Stores `events`, which record no other change.
    func insertSecurityEvents(_ events: [SecurityEventRecord]) async throws(StorageError)
    /// Up to `limit` events matching `filter`, newest first.
    func securityEvents(_ filter: SecurityEventFilter, limit: Int) async throws(StorageError) -> [SecurityEventRecord]
    /// Deletes the events older than `date` (the `audit_retention` sweep); returns how many.
    func deleteSecurityEvents(before date: Date) async throws(StorageError) -> Int
}
