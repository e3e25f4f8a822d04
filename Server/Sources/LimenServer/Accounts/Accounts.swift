import Foundation
import LimenOIDC

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
    private let now: @Sendable () -> Date

    /// Creates the service over a store.
    public init(store: any Store, hasher: PasswordHasher, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.hasher = hasher
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
        let trimmedName = name?.trimmingCharacters(in: .whitespacesAndNewlines)
        let user = UserRecord(
            id: RandomToken.make(byteCount: 16),
            email: email,
            emailVerified: emailVerified,
            name: trimmedName?.isEmpty == false ? trimmedName : nil,
            passwordHash: try await hasher.hash(password),
            createdAt: now()
        )
        let inserted: Bool
        do {
            inserted = try await store.insertUserIfAbsent(user)
        } catch {
            throw .storage(error)
        }
        guard inserted else { throw .emailTaken }
        return user
    }

    /// The user with this email and password; an unknown email and a wrong password are the same error, and cost
    /// the same work.
    public func signIn(email: String, password: String) async throws(AccountError) -> UserRecord {
        let found: UserRecord?
        do {
            found = try await store.user(email: Self.normalise(email))
        } catch {
            throw .storage(error)
        }
        guard let user = found, let stored = user.passwordHash else {
            await hasher.verifyNothing(password)
            throw .invalidCredentials
        }
        guard await hasher.verify(password, against: stored) else { throw .invalidCredentials }
        return user
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
