import Logging

extension Provider {
    /// Deletes the account `userID` as ``Accounts/delete(userID:)`` does, after revoking at Apple the refresh token
    /// kept for it (``AppleAccounts/accountDeleting(userID:logger:)``, best effort). The way the account page,
    /// `DELETE /v1/me` and the admin API delete a user; returns whether there was such a user.
    @discardableResult
    func deleteAccount(userID: String, logger: Logger) async throws(StorageError) -> Bool {
        await appleAccounts?.accountDeleting(userID: userID, logger: logger)
        return try await accounts.delete(userID: userID)
    }
}
