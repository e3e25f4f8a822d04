import Foundation

/// When a failing delivery is tried again: after ``firstBackoff``, the wait doubling after each attempt up to
/// ``maximumBackoff``, for ``window`` after the delivery was made (24 hours); after that it fails.
package struct WebhookRetrySchedule: Sendable, Equatable {
    /// The wait before the second attempt.
    package var firstBackoff: TimeInterval = 5
    /// The longest wait between two attempts.
    package var maximumBackoff: TimeInterval = 60 * 60
    /// How long after it was made a delivery is retried.
    package var window: TimeInterval = 24 * 60 * 60

    /// Makes it of its parts.
    package init(firstBackoff: TimeInterval = 5, maximumBackoff: TimeInterval = 60 * 60, window: TimeInterval = 86_400)
    {
        (self.firstBackoff, self.maximumBackoff, self.window) = (firstBackoff, maximumBackoff, window)
    }

    /// The wait after attempt `number` (1 for the first) failed.
    func backoff(afterAttempt number: Int) -> TimeInterval {
        min(firstBackoff * Double(1 << min(max(number - 1, 0), 30)), maximumBackoff)
    }

    /// When to try again after attempt `number` failed at `now`, or `nil` when that falls after `retryUntil`.
    func nextAttempt(afterAttempt number: Int, at now: Date, retryUntil: Date) -> Date? {
        let next = now.addingTimeInterval(backoff(afterAttempt: number))
        return next <= retryUntil ? next : nil
    }
}
