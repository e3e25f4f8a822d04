import Foundation

/// A failure to get an HTTP answer, or an answer that says "try later".
public enum NetworkError: Error, Sendable, Equatable {
    /// The device has no usable network connection, or the host could not be reached; the detail says what failed
    /// and where, e.g. `could not connect to http://127.0.0.1:9 (connection refused)`.
    case offline(String)
    /// The request did not complete in time.
    case timeout
    /// The TLS handshake or the server's certificate was refused by the platform's trust evaluation; the detail says
    /// which, e.g. `TLS with https://id.example.com failed (certificate not trusted)`.
    case tls(String)
    /// The connection closed before a complete response arrived; the detail says where.
    case connectionLost(String)
    /// The server answered an error status without an OAuth error body (5xx and 408 are retryable).
    case httpStatus(Int)
    /// The server answered 429 or 503, optionally saying how long to wait.
    case rateLimited(retryAfter: TimeInterval?)
    /// The request was cancelled by the caller.
    case cancelled
    /// The response could not be understood (for example a body that is not the expected JSON).
    case invalidResponse(String)
    /// The certificate chain `host` presented was trusted by the platform but matched none of the keys pinned for it
    /// (certificate pinning, enforced): the connection was closed before the request was sent.
    case pinningFailed(host: String)
    /// Keys are pinned for `host`, but the transport cannot see the certificates servers present (URLSession on
    /// Linux): the request was refused rather than sent unpinned.
    case pinningUnavailable(host: String)

    /// A stable, machine-readable identifier for this failure.
    public var code: String {
        switch self {
        case .offline: "network.offline"
        case .timeout: "network.timeout"
        case .tls: "network.tls"
        case .connectionLost: "network.connection_lost"
        case .httpStatus: "network.http_status"
        case .rateLimited: "network.rate_limited"
        case .cancelled: "network.cancelled"
        case .invalidResponse: "network.invalid_response"
        case .pinningFailed: "network.pinning_failed"
        case .pinningUnavailable: "network.pinning_unavailable"
        }
    }

    /// Whether the same request may succeed if tried again later.
    public var isRetryable: Bool {
        switch self {
        case .offline, .timeout, .connectionLost, .rateLimited: true
        case .httpStatus(let status): status >= 500 || status == 408
        case .tls, .cancelled, .invalidResponse, .pinningFailed, .pinningUnavailable: false
        }
    }

    /// Whether the request certainly never reached the server, so even a non-idempotent request may be repeated.
    public var neverReachedServer: Bool {
        switch self {
        case .offline: true
        default: false
        }
    }
}

extension NetworkError: LocalizedError {
    /// A human-readable description.
    public var errorDescription: String? {
        switch self {
        case .offline(let detail): detail
        case .timeout: "The request timed out."
        case .tls(let detail): detail
        case .connectionLost(let detail): detail
        case .httpStatus(let status): "The server answered with HTTP status \(status)."
        case .rateLimited(let retryAfter):
            retryAfter.map { "The server is busy; retry after \(Int($0)) s." } ?? "The server is busy; retry later."
        case .cancelled: "The request was cancelled."
        case .invalidResponse(let detail): "The server's response could not be read (\(detail))."
        case .pinningFailed(let host):
            "The certificates of \(host) match none of the keys pinned for it; the connection was refused."
        case .pinningUnavailable(let host):
            "Keys are pinned for \(host), but this HTTP transport cannot check the certificates servers present; the "
                + "request was refused rather than sent unpinned."
        }
    }
}
