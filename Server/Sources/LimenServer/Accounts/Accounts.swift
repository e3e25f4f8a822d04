import Foundation
import LimenWire

/// Creating accounts and checking passwords: what the sign-in pages and `limen-server users` use.
///
/// ```swift
/// let user = try await provider.accounts.signUp(email: "ada@example.com", password: "…", name: "Ada")
/// let same = try await provider.accounts.signIn(email: "ADA@example.com ", password: "…")
/// ```
public struct Accounts: Sendable {
    /// Passwords shorter than this are refused (NIST SP 800-63B §5.1.1.2).
    public static let minimumPasswordLength = 8
    /// Longer passwords are refused, so hashing stays bounded.
    public static let maximumPasswordLength = 1024

    private let store: any Store
    private let hasher: PasswordHasher
    private let lockout: SignInLockout
    private let now: @Sendable () -> Date

    /// Creates the service over a store.
    public init(
        store: any Store,
        hasher: PasswordHasher,
        lockout: SignInLockout = SignInLockout(),
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.hasher = hasher
        self.lockout = lockout
        self.now = now
    }

    /// Creates an account with a password; the email is normalised and must be free.
    public func signUp(
        email: String,
        password: String,
        name: String?,
        emailVerified: Bool = false
    ) async throws(AccountError) -> UserRecord {
        let email = Self.normalise(email)
        guard Self.isPlausibleEmail(email) else { throw .invalidEmail }
        if let problem = Self.passwordProblem(password, email: email) { throw .weakPassword(problem) }
        let user = UserRecord(
            id: RandomToken.make(byteCount: 16),
            email: email,
            emailVerified: emailVerified,
            name: Self.displayName(name),
            passwordHash: try await hasher.hash(password),
            createdAt: now()
        )
        guard try await storage({ () throws(StorageError) in try await store.insertUserIfAbsent(user) }) else {
            throw .emailTaken
        }
        return user
    }

    /// Applies `changes` to the account with subject `id` and returns it as stored, or `nil` when there is none. A new
    /// password is checked like a sign-up's; setting it ends the user's sessions, grants and codes (``UserStore``).
    public func update(id: String, _ changes: AccountChanges) async throws(AccountError) -> UserRecord? {
        guard var user = try await storage({ () throws(StorageError) in try await store.user(id: id) }) else {
            return nil
        }
        if let name = changes.name { user.name = Self.displayName(name) }
        if let emailVerified = changes.emailVerified { user.emailVerified = emailVerified }
        if let password = changes.password {
            if let problem = Self.passwordProblem(password, email: user.email) { throw .weakPassword(problem) }
            user.passwordHash = try await hasher.hash(password)
        }
        let stored = user
        guard try await storage({ () throws(StorageError) in try await store.updateUser(stored) }) else { return nil }
        return stored
    }

    /// The user with this email and password. An unknown email and a wrong password are the same error and cost the
    /// same work; repeated failures lock the email for a while (``SignInLockout``), whether or not it has an account.
    public func signIn(email: String, password: String) async throws(AccountError) -> UserRecord {
        let email = Self.normalise(email)
        let key = SignInLockout.key(forEmail: email)
        let lockedUntil = try await storage { () throws(StorageError) in try await store.signInLockedUntil(key: key) }
        if let lockedUntil, lockedUntil > now() {
            throw .locked(retryAfter: Int(lockedUntil.timeIntervalSince(now()).rounded(.up)))
        }
        let found = try await storage { () throws(StorageError) in try await store.user(email: email) }
        var verified = false
        if let stored = found?.passwordHash {
            verified = await hasher.verify(password, against: stored)
        } else {
            await hasher.verifyNothing(password)
        }
        guard verified, let user = found else {
            let failures = try await storage { () throws(StorageError) in
                try await store.recordSignInFailure(key: key, now: now())
            }
            if let duration = lockout.lockDuration(afterFailures: failures) {
                try await storage { () throws(StorageError) in
                    try await store.lockSignIn(key: key, until: now().addingTimeInterval(duration))
                }
            }
            throw .invalidCredentials
        }
        try await storage { () throws(StorageError) in try await store.clearSignInFailures(key: key) }
        return user
    }

    /// Runs a store call, reporting its failure as an account error.
    private func storage<Value>(
        _ body: () async throws(StorageError) -> Value
    ) async throws(AccountError) -> Value {
        do {
            return try await body()
        } catch {
            throw .storage(error)
        }
    }

    /// A display name trimmed, or `nil` when nothing is left.
    static func displayName(_ name: String?) -> String? {
        let trimmed = name?.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed?.isEmpty == false ? trimmed : nil
    }

    /// Trimmed and lower-cased.
    public static func normalise(_ email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// One `@`, something before it, a dot-separated domain after it, no spaces, at most 254 characters.
    static func isPlausibleEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, !email.contains(where: \.isWhitespace)
        else { return false }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }

    /// Why `password` is refused, or `nil` (length rules only, as NIST advises; never composition rules).
    static func passwordProblem(_ password: String, email: String) -> String? {
        if password.count < minimumPasswordLength {
            return "Use at least \(minimumPasswordLength) characters for your password."
        }
        if password.count > maximumPasswordLength {
            return "Use at most \(maximumPasswordLength) characters for your password."
        }
        if password.lowercased() == email { return "Your password cannot be your email address." }
        return nil
    }
}
