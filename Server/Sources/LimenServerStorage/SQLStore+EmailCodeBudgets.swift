import Foundation

/// Email-code budgets, written once for both dialects.
extension SQLStore {
    public func spendEmailCodeBudget(
        subject: String,
        counter: String,
        hourStart: Date,
        dayStart: Date,
        hourLimit: Int,
        dayLimit: Int,
        expiresAt: Date
    ) async throws(StorageError) -> Bool {
        // Count, then compare, in one statement: two requests at once cannot both take the last unit.
        !(try await execute(
            """
            INSERT INTO email_code_budgets (subject, counter, hour_start, hour_count, day_start, day_count, expires_at)
            VALUES (\(subject), \(counter), \(hourStart), 1, \(dayStart), 1, \(expiresAt))
            ON CONFLICT (subject, counter) DO UPDATE SET
                hour_count = CASE WHEN email_code_budgets.hour_start = excluded.hour_start
                    THEN email_code_budgets.hour_count + 1 ELSE 1 END,
                day_count = CASE WHEN email_code_budgets.day_start = excluded.day_start
                    THEN email_code_budgets.day_count + 1 ELSE 1 END,
                hour_start = excluded.hour_start, day_start = excluded.day_start, expires_at = excluded.expires_at
            WHERE (email_code_budgets.hour_start <> excluded.hour_start OR email_code_budgets.hour_count < \(hourLimit))
                AND (email_code_budgets.day_start <> excluded.day_start OR email_code_budgets.day_count < \(dayLimit))
            RETURNING 1
            """
        )).isEmpty
    }

    public func spendEmailCodeInterval(
        subject: String,
        counter: String,
        now: Date,
        interval: TimeInterval
    ) async throws(StorageError) -> Bool {
        // Compare and record in one statement: of two requests at once, one is counted.
        let expiresAt = now.addingTimeInterval(interval)
        return
            !(try await execute(
                """
                INSERT INTO email_code_budgets (subject, counter, hour_start, hour_count, day_start, day_count, expires_at)
                VALUES (\(subject), \(counter), \(now), 1, \(now), 1, \(expiresAt))
                ON CONFLICT (subject, counter) DO UPDATE SET
                    hour_start = excluded.hour_start, day_start = excluded.day_start, expires_at = excluded.expires_at
                WHERE email_code_budgets.hour_start <= \(now.addingTimeInterval(-interval))
                RETURNING 1
                """
            )).isEmpty
    }

    public func emailCodeBudget(subject: String, counter: String) async throws(StorageError) -> EmailCodeBudgetCount? {
        try await execute(
            "SELECT * FROM email_code_budgets WHERE subject = \(subject) AND counter = \(counter)"
        ).first.map { row throws(StorageError) in
            EmailCodeBudgetCount(
                hourStart: try row.date("hour_start"), hourCount: try row.integer("hour_count"),
                dayStart: try row.date("day_start"), dayCount: try row.integer("day_count"))
        }
    }

    @discardableResult
    public func deleteExpiredEmailCodeBudgets(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM email_code_budgets WHERE expires_at <= \(date) RETURNING 1").count
    }
}
