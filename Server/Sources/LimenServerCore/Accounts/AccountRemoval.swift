import LimenServerStorage
import Logging

/// Deletes accounts: the way the account page, `DELETE /v1/me` and the admin API delete a user.
package struct AccountRemoval: Sendable {
    /// Where the users are kept.
    package let store: any UserStore
    /// Deletes the user and everything of theirs.
    package let accounts: Accounts
    /// What Limen keeps of its users' Sign in with Apple, when the `apple` setting is given.
    package let apple: AppleAccounts?
    /// Tells the user's address that the account is gone.
    package let notifier: AccountNotifier

    /// A removal over `store` and `accounts`, revoking at Apple through `apple` and telling the owner through
    /// `notifier`.
    package init(store: any UserStore, accounts: Accounts, apple: AppleAccounts?, notifier: AccountNotifier) {
        (self.store, self.accounts, self.apple, self.notifier) = (store, accounts, apple, notifier)
    }

    /// Deletes the account `userID` as ``Accounts/delete(userID:)`` does, after revoking at Apple the refresh token
    /// kept for it (``AppleAccounts/accountDeleting(userID:logger:)``, best effort); returns whether there was such a
    /// user. Its address is told (``AccountNotifier/notify(_:to:)``). Recorded from `origin`.
    @discardableResult
    package func deleteAccount(userID: String, logger: Logger, origin: RequestOrigin)
        async throws(StorageError) -> Bool
    {
        let user = try await store.user(id: userID)
        await apple?.accountDeleting(userID: userID, logger: logger)
        guard try await accounts.delete(userID: userID, origin: origin) else { return false }
        if let user { try await notifier.notify(.accountDeleted, to: user) }
        return true
    }
}
