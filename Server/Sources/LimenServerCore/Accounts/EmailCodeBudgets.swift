import Foundation
import LimenServerStorage

/// A limit per hour and per (UTC) day, read from a setting like `5/h,10/d`.
public struct EmailCodeBudget: Sendable, Equatable, CustomStringConvertible {
    /// How many per clock hour.
    public var perHour: Int
    /// How many per day (UTC).
    public var perDay: Int

    /// A budget of `perHour` an hour and `perDay` a day.
    public init(perHour: Int, perDay: Int) {
        (self.perHour, self.perDay) = (perHour, perDay)
    }

    /// Reads `N/h,M/d` (whole numbers from 1 to 10,000); `nil` otherwise.
    public init?(setting: String) {
        let parts = setting.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard parts.count == 2, parts[0].hasSuffix("/h"), parts[1].hasSuffix("/d"),
            let hour = Int(parts[0].dropLast(2)), let day = Int(parts[1].dropLast(2)),
            (1...10_000).contains(hour), (1...10_000).contains(day)
        else { return nil }
        self.init(perHour: hour, perDay: day)
    }

    public var description: String { "\(perHour)/h,\(perDay)/d" }
}

/// Budgets of one-time email codes per address and purpose (the flow: `email-code`, `sign-up`, `password-reset`, …)
/// across codes and interactions: codes mailed, and codes tried (`email_code_mail_budget`, `email_code_try_budget`).
/// Each code still has its own five tries (``EmailCodes``); the budgets stop a guesser who asks for code after code.
/// Counted in the store under a keyed hash of the address (so they hold across nodes), for any plausible address,
/// whether or not it has an account: a refusal tells nothing about the address.
package struct EmailCodeBudgets: Sendable {
    /// What is counted.
    package enum Counter: String, Sendable {
        /// A code (or the sign-up notice in its place) mailed.
        case mail
        /// A code submitted, right or wrong.
        case attempt
    }

    /// By default: 5 codes an hour and 10 a day.
    package static let defaultMails = EmailCodeBudget(perHour: 5, perDay: 10)
    /// By default: 10 tries an hour and 20 a day.
    package static let defaultTries = EmailCodeBudget(perHour: 10, perDay: 20)

    /// Where the counters are kept.
    package let store: any EmailCodeBudgetStore
    /// Names the counters.
    package let keys: DerivedKeys
    /// The clock.
    package let now: @Sendable () -> Date
    /// Codes mailed.
    package var mails: EmailCodeBudget = Self.defaultMails
    /// Codes tried.
    package var tries: EmailCodeBudget = Self.defaultTries

    /// Makes it of its parts.
    package init(
        store: any EmailCodeBudgetStore, keys: DerivedKeys, now: @escaping @Sendable () -> Date,
        mails: EmailCodeBudget = Self.defaultMails, tries: EmailCodeBudget = Self.defaultTries
    ) {
        self.store = store
        self.keys = keys
        self.now = now
        self.mails = mails
        self.tries = tries
    }

    /// Counts one message to `email` for `purpose` unless the previous one was less than `interval` seconds ago, for
    /// every address alike, whatever was sent; `nil` when it was counted, else the seconds until one may be.
    package func spendSpacedMessage(
        email: String, purpose: String, interval: TimeInterval
    ) async throws(StorageError) -> Int? {
        let subject = keys.hmacHex("\(purpose)\u{0}\(email)", for: .emailCodeBudget)
        let counter = "spacing"
        let now = now()
        guard
            try await !store.spendEmailCodeInterval(subject: subject, counter: counter, now: now, interval: interval)
        else { return nil }
        let previous = try await store.emailCodeBudget(subject: subject, counter: counter)?.hourStart ?? now
        return max(Int(previous.addingTimeInterval(interval).timeIntervalSince(now).rounded(.up)), 1)
    }

    /// Counts one `counter` for `email` and `purpose`; `nil` when it was within the budget, else the seconds until the
    /// budget allows one more (nothing is counted then).
    package func spend(_ counter: Counter, email: String, purpose: String) async throws(StorageError) -> Int? {
        let budget = counter == .mail ? mails : tries
        let subject = keys.hmacHex("\(purpose)\u{0}\(email)", for: .emailCodeBudget)
        let now = now()
        let seconds = now.timeIntervalSince1970.rounded(.down)
        let hourStart = Date(timeIntervalSince1970: seconds - seconds.truncatingRemainder(dividingBy: 3600))
        let dayStart = Date(timeIntervalSince1970: seconds - seconds.truncatingRemainder(dividingBy: 86400))
        let dayEnd = dayStart.addingTimeInterval(86400)
        guard
            try await !store.spendEmailCodeBudget(
                subject: subject, counter: counter.rawValue, hourStart: hourStart, dayStart: dayStart,
                hourLimit: budget.perHour, dayLimit: budget.perDay, expiresAt: dayEnd)
        else { return nil }
        let spent = try await store.emailCodeBudget(subject: subject, counter: counter.rawValue)
        let dayFull = spent.map { $0.dayStart == dayStart && $0.dayCount >= budget.perDay } ?? false
        let refill = dayFull ? dayEnd : hourStart.addingTimeInterval(3600)
        return max(Int(refill.timeIntervalSince(now).rounded(.up)), 1)
    }
}
