/// What an administrator changes about an account (``Accounts/update(id:_:)``); a `nil` member leaves that part as it
/// is. The email address is not changed this way: it names the account at sign-in.
public struct AccountChanges: Sendable, Equatable {
    /// The new display name; `.some(nil)` (or a blank name) removes it.
    public var name: String??
    /// Whether the email address has been shown to belong to the user.
    public var emailVerified: Bool?
    /// A new password. Setting it signs the user out everywhere: sessions, grants and codes end.
    public var password: String?

    /// Creates a set of changes.
    public init(name: String?? = nil, emailVerified: Bool? = nil, password: String? = nil) {
        self.name = name
        self.emailVerified = emailVerified
        self.password = password
    }
}
