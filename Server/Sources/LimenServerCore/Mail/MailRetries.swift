import Logging

/// How a mailer tries a message again: a fixed number of attempts, the wait doubling after each; an error that is not
/// retryable ends the attempts at once. The last error is thrown, so that nothing is lost silently.
package struct MailRetries: Sendable {
    /// How many times a message is tried.
    package var attempts: Int = 3
    /// How long to wait before the first retry; doubled before each next one.
    package var firstBackoff: Duration = .seconds(1)

    /// Makes it of its parts.
    package init(attempts: Int = 3, firstBackoff: Duration = .seconds(1)) {
        self.attempts = attempts
        self.firstBackoff = firstBackoff
    }

    /// The wait before retry `number` (1 for the first): ``firstBackoff`` doubled for each retry before it.
    func backoff(beforeRetry number: Int) -> Duration {
        firstBackoff * (1 << min(max(number - 1, 0), 20))
    }

    /// Runs `attempt` until it succeeds, fails for good, or the attempts are used up; logs each failure. An error
    /// that is not a ``MailError`` is described after `destination` (which never holds a password or a secret). A
    /// cancelled task (a shutdown) stops at once, with the last error, still retryable: the outbox keeps the message
    /// for a later try, by this node after a restart or by another.
    package func run(
        logger: Logger,
        destination: String,
        _ attempt: () async throws -> Void
    ) async throws(MailError) {
        var lastError = MailError("not tried")
        for number in 1...max(attempts, 1) {
            do {
                try await attempt()
                return
            } catch {
                lastError = (error as? MailError) ?? MailError("\(destination): \(error)")
                logger.warning(
                    "Mail not delivered", metadata: ["attempt": "\(number)", "error": "\(lastError.description)"])
            }
            guard lastError.isRetryable, number < attempts, !Task.isCancelled else { break }
            do {
                try await Task.sleep(for: backoff(beforeRetry: number))
            } catch {
                break
            }
        }
        throw lastError
    }
}
