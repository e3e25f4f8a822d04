import LimenServerStorage

extension FlowActionRunner {
    /// Redeems a one-time `code` sent to `address` (an email address, or a phone number) for `purpose`, spending a try
    /// of the address's budget at the same time: the two counts share a commit. `nil` when the code was right and the
    /// budget allowed the try; otherwise the refusal, the spent budget first, whatever the code was (so a guesser past
    /// the budget learns nothing from the code's answer).
    static func redeem(
        _ code: String,
        sentTo address: String,
        purpose: String,
        codes: EmailCodes,
        budgets: EmailCodeBudgets
    ) async throws(StorageError) -> FlowRefusal? {
        let (wait, redeemed) = try await concurrently(
            { () async throws(StorageError) in try await budgets.spend(.attempt, email: address, purpose: purpose) },
            { () async throws(StorageError) in try await codes.redeem(code, email: address, purpose: purpose) })
        if let wait { return budgetSpent(retryAfter: wait) }
        return redeemed ? nil : invalidCode
    }
}
