import Foundation

/// How much of one budget (``EmailCodeBudgets``) an address and purpose spent in the current hour and day.
public struct EmailCodeBudgetCount: Sendable, Equatable {
    /// The start of the hour counted.
    public var hourStart: Date
    /// What was spent in it.
    public var hourCount: Int
    /// The start of the day (UTC) counted.
    public var dayStart: Date
    /// What was spent in it.
    public var dayCount: Int

    /// Creates a count.
    public init(hourStart: Date, hourCount: Int, dayStart: Date, dayCount: Int) {
        (self.hourStart, self.hourCount, self.dayStart, self.dayCount) = (hourStart, hourCount, dayStart, dayCount)
    }
}

/// The email-code budget part of the ``Store``: counters per address and purpose (by a keyed hash) and kind, so that
/// a limit holds across codes, interactions and nodes.
public protocol EmailCodeBudgetStore: Sendable {
    /// Counts one spending of `counter` for `subject` in the hour starting `hourStart` and the day starting `dayStart`
    /// (a new hour or day starts from zero), in one statement, unless that hour already holds `hourLimit` or that day
    /// `dayLimit`; returns whether it was counted. The row lives until `expiresAt`.
    func spendEmailCodeBudget(
        subject: String, counter: String, hourStart: Date, dayStart: Date, hourLimit: Int, dayLimit: Int,
        expiresAt: Date
    ) async throws(StorageError) -> Bool
    /// Counts one spending of `counter` for `subject` at `now`, in one statement, unless the previous one was less than
    /// `interval` seconds before; returns whether it was counted (the row's `hour_start` is the last spending's time).
    func spendEmailCodeInterval(
        subject: String, counter: String, now: Date, interval: TimeInterval
    ) async throws(StorageError) -> Bool
    /// What `subject` spent of `counter`, `nil` when nothing yet.
    func emailCodeBudget(subject: String, counter: String) async throws(StorageError) -> EmailCodeBudgetCount?
    /// Deletes counters whose day ended before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredEmailCodeBudgets(before date: Date) async throws(StorageError) -> Int
}
