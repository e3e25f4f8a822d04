import Foundation
import LimenServerStorage
import LimenWire

/// A security event before it is stamped: what happened, to whom, with which client, and its typed details. A change
/// hands its events to the store method that makes it, which writes both in one unit (see ``SecurityEventRecorder``).
public struct SecurityEvent: Sendable, Equatable {
    /// What happened.
    public var type: SecurityEventType
    /// The subject of the user it concerns.
    public var user: String?
    /// The client it concerns.
    public var client: String?
    /// Its details.
    public var details: SecurityEventDetails

    /// Creates an event.
    public init(
        _ type: SecurityEventType, user: String? = nil, client: String? = nil, details: SecurityEventDetails = .none
    ) {
        self.type = type
        self.user = user
        self.client = client
        self.details = details
    }
}

/// Where a change came from: the request's address, `User-Agent` and id, and who acted when not the user. Built by the
/// HTTP layer from the request (Core sees no HTTP types), or ``commandLine``.
public struct RequestOrigin: Sendable, Equatable {
    /// The client's address (behind trusted proxies, the forwarded one).
    public var ip: String?
    /// The request's `User-Agent`, cut to ``maximumUserAgentLength``.
    public var userAgent: String?
    /// The request's id.
    public var requestID: String?
    /// Who acted, when not the user the event concerns.
    public var actor: SecurityEventActor?

    /// The longest `User-Agent` kept.
    public static let maximumUserAgentLength = 256

    /// Creates an origin.
    public init(ip: String? = nil, userAgent: String? = nil, requestID: String? = nil, actor: SecurityEventActor? = nil)
    {
        self.ip = ip
        self.userAgent = userAgent.map { String($0.prefix(Self.maximumUserAgentLength)) }
        self.requestID = requestID
        self.actor = actor
    }

    /// The client's address as the limits and lockouts key it: empty when unknown (the command line).
    public var address: String { ip ?? "" }

    /// A change made by `limen-server` on the command line.
    public static let commandLine = RequestOrigin(actor: .commandLine)
}

/// Who made a change on someone's behalf: a stable string.
public struct SecurityEventActor: RawRepresentable, Hashable, Sendable {
    /// The stable string.
    public let rawValue: String

    /// An actor spelled `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The holder of the admin API's token.
    public static let adminToken = SecurityEventActor(rawValue: "admin_token")
    /// An operator running `limen-server` on the command line.
    public static let commandLine = SecurityEventActor(rawValue: "command_line")

    /// The admin with subject `userID`, acting in the admin console: the actor is the subject itself (random, so
    /// never one of the fixed strings above).
    public static func admin(_ userID: String) -> SecurityEventActor {
        SecurityEventActor(rawValue: userID)
    }
}

/// Stamps events with an id (the time in milliseconds, then 96 random bits), the time and their origin, into the records a store writes with the change they
/// record.
///
/// Atomicity: a store method that makes a change takes the records too (``UserStore/insertUserIfAbsent(_:recording:)``
/// and its kind) and writes them only when the change took effect, in the same unit: in SQLite a savepoint in the group
/// commit's transaction (``SQLiteStore``), in PostgreSQL one statement (the change as a `WITH` clause, the insert
/// conditioned on it). A change that fails writes no event; an event that cannot be written undoes the change. The cost
/// on a hot path is one insert in the same transaction and no extra round trip.
///
/// Off (``isEnabled`` false) it stamps nothing, so a change writes no event: for measuring what events cost.
public struct SecurityEventRecorder: Sendable {
    /// Whether events are written.
    public let isEnabled: Bool
    private let now: @Sendable () -> Date

    /// Creates a recorder reading the time from `now`.
    public init(isEnabled: Bool = true, now: @escaping @Sendable () -> Date) {
        self.isEnabled = isEnabled
        self.now = now
    }

    /// `events` as records from `origin`, stamped now; none when off.
    public func records(_ events: [SecurityEvent], from origin: RequestOrigin) -> [SecurityEventRecord] {
        guard isEnabled else { return [] }
        let time = now()
        // Milliseconds first, so that ids sort in the order events happened within a second.
        let prefix = String(UInt64(max(0, time.timeIntervalSince1970 * 1000)), radix: 16)
        return events.map { event in
            SecurityEventRecord(
                id: prefix + "-" + RandomToken.make(byteCount: 12), type: event.type.rawValue, time: time,
                user: event.user,
                client: event.client, actor: origin.actor?.rawValue, ip: origin.ip, userAgent: origin.userAgent,
                requestID: origin.requestID, details: event.details.json)
        }
    }
}

extension RequestOrigin {
    /// `event`, and when an actor made it (the admin token, the command line), the `admin` event that says so, with the
    /// same user, client and details.
    public func events(_ event: SecurityEvent, admin: SecurityEventType) -> [SecurityEvent] {
        guard actor != nil else { return [event] }
        return [event, SecurityEvent(admin, user: event.user, client: event.client, details: event.details)]
    }
}
