import Foundation

/// Why an account operation was refused.
public enum AccountError: Error, Sendable, Equatable, LocalizedError {
    /// The email address is not of the form `local@domain`.
    case invalidEmail
    /// The password does not meet the policy; the reason says which rule.
    case weakPassword(String)
    /// An account with this email exists.
    case emailTaken
    /// Unknown email or wrong password (deliberately not told apart).
    case invalidCredentials
    /// Too many failed sign-ins to this email: try again after this many seconds.
    case locked(retryAfter: Int)
    /// The password could not be hashed.
    case hashingFailed
    /// The store failed.
    case storage(StorageError)

    /// A stable code for logs, tests and API answers.
    public var code: String {
        switch self {
        case .invalidEmail: "accounts.invalid_email"
        case .weakPassword: "accounts.weak_password"
        case .emailTaken: "accounts.email_taken"
        case .invalidCredentials: "accounts.invalid_credentials"
        case .locked: "accounts.locked"
        case .hashingFailed: "accounts.hashing_failed"
        case .storage: "accounts.storage"
        }
    }

    /// A message that can be shown to the person signing in.
    public var errorDescription: String? {
        switch self {
        case .invalidEmail: "Enter an email address such as name@example.com."
        case .weakPassword(let reason): reason
        case .emailTaken: "An account with this email already exists. Sign in instead."
        case .invalidCredentials: "The email or password is not correct."
        case .locked(let seconds):
            "Too many failed attempts. Try again in \(seconds < 120 ? "\(seconds) seconds" : "\(seconds / 60) minutes")."
        case .hashingFailed, .storage: "Something went wrong on our side. Please try again."
        }
    }
}
