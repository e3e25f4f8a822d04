import Foundation
import LimenOIDC

/// When and how long a ``RetryingTransport`` waits before repeating a request.
///
/// Delays follow exponential backoff with full jitter: before retry `n` (from 0) the transport waits a random time
/// in `0..<min(maxDelay, baseDelay × multiplierⁿ)`. A `Retry-After` answer replaces the jittered delay when it is
/// at most ``maxRetryAfter``; a longer one is not waited for and the response is returned as is.
///
/// ```swift
/// var policy = RetryPolicy()
/// policy.maxRetries = 5
/// let transport = RetryingTransport(base: URLSessionTransport(), policy: policy)
/// ```
public struct RetryPolicy: Sendable, Equatable {
    /// How many times a request is repeated after the first attempt (default 3).
    public var maxRetries: Int
    /// The backoff ceiling before the first retry (default 0.5 s).
    public var baseDelay: Duration
    /// How much the ceiling grows with each retry (default 2).
    public var multiplier: Double
    /// The largest backoff ceiling (default 8 s).
    public var maxDelay: Duration
    /// The longest `Retry-After` the transport waits for (default 30 s); a longer one returns the response.
    public var maxRetryAfter: Duration
    /// The HTTP statuses after which an idempotent request is repeated (default 429, 502, 503, 504).
    public var retryableStatuses: Set<Int>

    /// Creates a policy; every parameter has the documented default.
    public init(
        maxRetries: Int = 3,
        baseDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(8),
        maxRetryAfter: Duration = .seconds(30),
        retryableStatuses: Set<Int> = [429, 502, 503, 504]
    ) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.retryableStatuses = retryableStatuses
    }

    /// The jittered delay before retry number `retry` (0 for the first), given a `random` value in `0..<1`.
    public func backoff(beforeRetry retry: Int, random: Double) -> Duration {
        let exponent = Double(max(0, retry))
        let ceiling = min(maxDelay.inSeconds, baseDelay.inSeconds * pow(multiplier, exponent))
        let fraction = min(max(random, 0), 1)
        return .seconds(max(0, ceiling) * fraction)
    }

    /// Whether a request that failed below HTTP with `error` may be sent again.
    ///
    /// Idempotent requests are repeated after a timeout, being offline or a lost connection; other requests only
    /// when the error proves they never reached the server (`NetworkError.neverReachedServer`).
    public func shouldRetry(_ request: HTTPRequest, after error: NetworkError) -> Bool {
        if error.neverReachedServer { return true }
        guard request.isIdempotent else { return false }
        switch error {
        case .timeout, .offline, .connectionLost: return true
        default: return false
        }
    }

    /// Whether a request answered with `response` may be sent again: only idempotent requests, only for
    /// ``retryableStatuses`` (the server saw a non-idempotent request, so repeating it could apply it twice).
    public func shouldRetry(_ request: HTTPRequest, after response: HTTPResponse) -> Bool {
        request.isIdempotent && retryableStatuses.contains(response.status)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point value.
    fileprivate var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
