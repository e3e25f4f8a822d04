/// What a sign-in did to the account on the device (RxFireAuth's `LoginDescriptor`): the ``allowMigration`` the app
/// passed, the guest that was signed in before, and the user signed in now. When ``anonymousUserID`` differs from
/// ``userID`` the guest was replaced (and deleted by the provider); when they are equal it was upgraded in place.
///
/// ```swift
/// let descriptor = try await client.login(email: email, password: password, allowMigration: true)
/// if descriptor.replacedAnonymousUser { moveLocalData(from: descriptor.anonymousUserID, to: descriptor.userID) }
/// ```
public struct LoginDescriptor: Sendable, Equatable {
    /// The `allowMigration` the call passed: `nil`, or the person's answer to ``AccountError/migrationRequired(_:)``.
    public var allowMigration: Bool?
    /// The guest's user ID when a guest was signed in on the device before the call, `nil` otherwise.
    public var anonymousUserID: String?
    /// The user ID signed in now.
    public var userID: String

    /// Creates a descriptor.
    public init(allowMigration: Bool?, anonymousUserID: String?, userID: String) {
        self.allowMigration = allowMigration
        self.anonymousUserID = anonymousUserID
        self.userID = userID
    }

    /// Whether a guest was signed in and another account replaced it (the guest is deleted by the provider; with
    /// `allowMigration: true` its unencrypted profile fields were merged into the account's first).
    public var replacedAnonymousUser: Bool {
        anonymousUserID.map { $0 != userID } ?? false
    }
}
