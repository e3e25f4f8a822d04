import Foundation

/// How the server delivers event webhooks.
public struct WebhookSettings: Sendable, Equatable {
    /// Whether webhooks may post to loopback `http` URLs (`allow_http_webhooks`, for development); off: `https` only.
    public var allowsHTTPLoopback = false
    /// How long one POST may take before it counts as a timeout and is retried (`webhook_timeout`).
    public var timeout: TimeInterval = 10
    /// How many POSTs one node has in flight at most.
    public var concurrency = 16
    /// When failing deliveries are tried again.
    package var retries = WebhookRetrySchedule()

    /// The defaults: `https` only, 10 seconds, 16 at once, retried for 24 hours.
    public init() {}
}
