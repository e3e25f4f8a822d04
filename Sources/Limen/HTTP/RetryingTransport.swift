import Foundation
import LimenOIDC

/// An `HTTPTransport` that repeats transient failures of another transport, with exponential backoff and full
/// jitter (see ``RetryPolicy``).
///
/// - Idempotent requests (`HTTPRequest.isIdempotent`) are repeated after a timeout, being offline or a lost
///   connection, and after HTTP 429, 502, 503 and 504.
/// - Other requests (token `POST`s) are repeated only when the failure proves they never reached the server
///   (`NetworkError.neverReachedServer`), so a grant is never redeemed twice.
/// - `Retry-After` (seconds or an HTTP date) is honoured up to ``RetryPolicy/maxRetryAfter``; when the server asks
///   for longer, its response is returned at once.
/// - When the retries run out, the last response is returned or the last error thrown. Cancelling the calling
///   task during a wait ends the call with `NetworkError.cancelled`.
/// - Each repeated attempt is made anew by the request's `renewal`: a DPoP-proven request carries a fresh proof (a
///   new `jti`, the current `iat`), which a server that refuses replayed proofs accepts.
///
/// ```swift
/// let transport = RetryingTransport(base: URLSessionTransport())
/// let configuration = Configuration(issuer: issuer, clientID: "app", transport: transport)
/// ```
public struct RetryingTransport: HTTPTransport {
    /// The transport that sends each attempt.
    public let base: any HTTPTransport
    /// When and how long to wait between attempts.
    public let policy: RetryPolicy
    private let clock: any Clock<Duration>
    private let random: @Sendable () -> Double
    private let now: @Sendable () -> Date

    /// Creates a retrying transport.
    /// - Parameters:
    ///   - base: The transport that sends each attempt.
    ///   - policy: Backoff and retry limits.
    ///   - clock: Waits between attempts; tests inject one that records the delays instead of waiting.
    ///   - random: A value in `0..<1` for the jitter; tests inject a fixed sequence.
    ///   - now: The current time, for `Retry-After` given as an HTTP date.
    public init(
        base: any HTTPTransport,
        policy: RetryPolicy = RetryPolicy(),
        clock: any Clock<Duration> = ContinuousClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.base = base
        self.policy = policy
        self.clock = clock
        self.random = random
        self.now = now
    }

    /// Sends the request, repeating it as the policy allows; each repeated attempt is the request made again by its
    /// `HTTPRequest.renewal` (a fresh DPoP proof), and one that cannot be made again is not repeated.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        var (attempt, retry) = (request, 0)
        while true {
            let outcome: Result<HTTPResponse, NetworkError>
            do {
                outcome = .success(try await base.send(attempt))
            } catch {
                outcome = .failure(error)
            }
            guard retry < policy.maxRetries, let delay = delay(after: outcome, of: attempt, retry: retry) else {
                return try outcome.get()
            }
            do {
                try await clock.sleep(for: delay)
            } catch {
                throw .cancelled
            }
            if Task.isCancelled { throw .cancelled }
            guard let next = await attempt.renewed(after: try? outcome.get()) else { return try outcome.get() }
            (attempt, retry) = (next, retry + 1)
        }
    }

    /// How long to wait before repeating `request` after `outcome`, or `nil` to stop here.
    private func delay(after outcome: Result<HTTPResponse, NetworkError>, of request: HTTPRequest, retry: Int)
        -> Duration?
    {
        switch outcome {
        case .success(let response):
            guard policy.shouldRetry(request, after: response) else { return nil }
            if let retryAfter = response.retryAfter(now: now()) {
                let asked = Duration.seconds(retryAfter)
                return asked <= policy.maxRetryAfter ? asked : nil
            }
            return policy.backoff(beforeRetry: retry, random: random())
        case .failure(let error):
            guard policy.shouldRetry(request, after: error) else { return nil }
            return policy.backoff(beforeRetry: retry, random: random())
        }
    }
}

extension RetryingTransport: PinnableTransport {
    /// This transport, retrying as before over its base's pinned transport; `nil` when its base cannot pin. A refused
    /// chain (`NetworkError.pinningFailed(host:)`) is never retried.
    public func pinned(by evaluator: PinningEvaluator) -> (any HTTPTransport)? {
        guard let pinnedBase = (base as? any PinnableTransport)?.pinned(by: evaluator) else { return nil }
        return RetryingTransport(base: pinnedBase, policy: policy, clock: clock, random: random, now: now)
    }
}
