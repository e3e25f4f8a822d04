import Foundation
import LimenServerStorage

/// Why an account operation was refused.
public enum AccountError: Error, Sendable, Equatable, LocalizedError {
    /// The email address is not of the form `local@domain`.
    case invalidEmail
    /// The password does not meet the policy; the reason says which rule.
    case weakPassword(String)
    /// A user field is longer than the server keeps: the field's name, and its most characters.
    case fieldTooLong(field: String, maximum: Int)
    /// An account with this email exists.
    case emailTaken
    /// Unknown email or wrong password (deliberately not told apart).
    case invalidCredentials
    /// Too many failed sign-ins to this email from this client address: try again after this many seconds.
    case locked(retryAfter: Int)
    /// Another sign-in to this email from this client address is being checked right now.
    case attemptInProgress
    /// Password hashing is at capacity: try again after this many seconds.
    case busy(retryAfter: Int)
    /// The password could not be hashed.
    case hashingFailed
    /// The store failed.
    case storage(StorageError)

    /// A stable code for logs, tests and API answers.
    public var code: String {
        switch self {
        case .invalidEmail: "accounts.invalid_email"
        case .weakPassword: "accounts.weak_password"
        case .fieldTooLong: "accounts.field_too_long"
        case .emailTaken: "accounts.email_taken"
        case .invalidCredentials: "accounts.invalid_credentials"
        case .locked: "accounts.locked"
        case .attemptInProgress: "accounts.attempt_in_progress"
        case .busy: "accounts.busy"
        case .hashingFailed: "accounts.hashing_failed"
        case .storage: "accounts.storage"
        }
    }

    /// The seconds to wait before trying again, for a `Retry-After` field; `nil` when waiting does not help.
    public var retryAfter: Int? {
        switch self {
        case .locked(let seconds), .busy(let seconds): seconds
        case .attemptInProgress: 1
        default: nil
        }
    }

    /// A message that can be shown to the person signing in.
    public var errorDescription: String? {
        switch self {
        case .invalidEmail: "Enter an email address such as name@example.com."
        case .weakPassword(let reason): reason
        case .fieldTooLong(let field, let maximum): "Use at most \(maximum) characters for your \(field)."
        case .emailTaken: "An account with this email already exists. Sign in instead."
        case .invalidCredentials: "The email or password is not correct."
        case .locked(let seconds):
            "Too many failed attempts. Try again in \(seconds < 120 ? "\(seconds) seconds" : "\(seconds / 60) minutes")."
        case .attemptInProgress: "A sign-in to this account is already being checked. Try again in a moment."
        case .busy: "The server is busy. Try again in a moment."
        case .hashingFailed, .storage: "Something went wrong on our side. Please try again."
        }
    }
}
