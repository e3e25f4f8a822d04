import Foundation

/// How a webhook's POST is sent: one request, no redirect followed, the answer's status code returned. The HTTP
/// layer's SwiftNIO client conforms; Core sees no HTTP types.
package protocol WebhookTransport: Sendable {
    /// Posts `body` with `headers` to `url` and returns the status code, or throws ``WebhookSendError`` when no answer
    /// came within `timeout`.
    func post(_ body: Data, headers: [(String, String)], to url: WebhookURL, timeout: Duration)
        async throws(WebhookSendError) -> Int
}

/// Why a webhook's POST got no answer.
package enum WebhookSendError: Error, Sendable, Equatable {
    /// No answer within the timeout.
    case timeout
    /// The connection failed: refused, reset, closed without an answer, or TLS failed.
    case connectionFailed

    /// A stable code, kept with the delivery.
    package var code: String {
        switch self {
        case .timeout: "timeout"
        case .connectionFailed: "connection_failed"
        }
    }
}

/// What an attempt's result means for the delivery: delivered (`2xx`), tried again later (no answer, `5xx`, `408`,
/// `429`), or failed at once (any other status, redirects included: they are never followed).
package enum WebhookAttemptOutcome: String, Sendable, Equatable, CaseIterable {
    /// A `2xx` answer.
    case delivered
    /// A transient failure: no answer, `5xx`, `408` or `429`.
    case retryable
    /// A final refusal.
    case rejected

    /// The outcome of an answer with `status`.
    package init(status: Int) {
        switch status {
        case 200..<300: self = .delivered
        case 408, 429, 500..<600: self = .retryable
        default: self = .rejected
        }
    }
}
