import Foundation
import LimenServerStorage

/// How long a client may take to send a request head, and may leave its connection idle, before the server closes the
/// connection: without both, a client that opens many connections and sends a few header bytes now and then
/// (slowloris) holds them open for ever.
///
/// ```swift
/// var configuration = ServerConfiguration()
/// configuration.connectionTimeouts = ConnectionTimeouts(headerRead: 5, idle: 30)
/// ```
public struct ConnectionTimeouts: Sendable, Equatable {
    /// The settable header-read timeouts, in seconds.
    public static let headerReadRange: ClosedRange<TimeInterval> = 1...600
    /// The settable idle timeouts, in seconds.
    public static let idleRange: ClosedRange<TimeInterval> = 1...3600

    /// Seconds from the first byte of a request to the end of its head (request line and header fields), however
    /// slowly the bytes trickle in. Default 10 s.
    public var headerRead: TimeInterval
    /// Seconds a connection may go without a request part arriving: before its first request, between requests on a
    /// kept-alive connection, or while a request body stalls (never while the server is answering). Default 60 s.
    public var idle: TimeInterval

    /// Timeouts of `headerRead` and `idle` seconds.
    public init(headerRead: TimeInterval = 10, idle: TimeInterval = 60) {
        self.headerRead = headerRead
        self.idle = idle
    }
}
