import Foundation

/// A one-time code sent by email (or by SMS: then the address is the phone number), kept only as a keyed hash: one per
/// address and purpose, so a new code ends the earlier one.
public struct EmailCodeRecord: Sendable, Equatable {
    /// The address it was sent to (normalised), or the phone number (E.164).
    public var email: String
    /// What it is for: `sign_in`, `password_reset`, `verify_email`.
    public var purpose: String
    /// HMAC-SHA256 of the code under a key derived from the master key.
    public var codeHash: Data
    /// Tries so far (the one that uses the code counts too).
    public var attempts: Int
    /// When it was sent.
    public var createdAt: Date
    /// When it stops working.
    public var expiresAt: Date

    /// Creates a record.
    public init(email: String, purpose: String, codeHash: Data, attempts: Int = 0, createdAt: Date, expiresAt: Date) {
        (self.email, self.purpose, self.codeHash) = (email, purpose, codeHash)
        (self.attempts, self.createdAt, self.expiresAt) = (attempts, createdAt, expiresAt)
    }
}

/// The email-code part of the ``Store``.
public protocol EmailCodeStore: Sendable {
    /// Stores `code`, replacing any earlier code for its address and purpose.
    func replaceEmailCode(_ code: EmailCodeRecord) async throws(StorageError)
    /// Uses the code for `email` and `purpose`: in one statement, counts a try on an unexpired code with fewer than
    /// `maximumAttempts` tries and, when `codeHash` matches, ends it (returning `true`); otherwise returns `false`. So
    /// parallel tries never check more than `maximumAttempts` between them, and a code is used once.
    func consumeEmailCode(
        email: String, purpose: String, codeHash: Data, now: Date, maximumAttempts: Int
    ) async throws(StorageError) -> Bool
    /// Deletes codes that expired before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredEmailCodes(before date: Date) async throws(StorageError) -> Int
}
