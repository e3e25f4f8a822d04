import LimenServerStorage
import Logging

extension Provider {
    /// Deletes the account `userID` as ``Accounts/delete(userID:)`` does, after revoking at Apple the refresh token
    /// kept for it (``AppleAccounts/accountDeleting(userID:logger:)``, best effort). The way the account page,
    /// `DELETE /v1/me` and the admin API delete a user; returns whether there was such a user. Its address is told
    /// (``notify(_:to:)``).
    @discardableResult
    func deleteAccount(userID: String, logger: Logger) async throws(StorageError) -> Bool {
        let user = try await store.user(id: userID)
        await appleAccounts?.accountDeleting(userID: userID, logger: logger)
        guard try await accounts.delete(userID: userID) else { return false }
        if let user { try await notify(.accountDeleted, to: user) }
        return true
    }
}
