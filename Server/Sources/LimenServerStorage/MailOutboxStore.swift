import Foundation

/// A message waiting in the mail outbox: sealed (it may hold a code), claimed by one worker at a time for a lease,
/// deleted once delivered.
public struct OutboxMailRecord: Sendable, Equatable {
    /// A random identifier (also what the sealed body is bound to).
    public var id: String
    /// The message, AES-GCM-sealed under a key derived from the master key.
    public var sealed: Data
    /// Deliveries tried so far.
    public var attempts: Int
    /// Until when a worker holds it; no worker takes it before (also the time of the next try after a failure).
    public var claimedUntil: Date
    /// Who holds it now (a random token per claim), so that only the holder finishes it.
    public var claim: String
    /// When it was written.
    public var createdAt: Date
    /// After this it is no longer sent (its code has expired) and the sweeper removes it.
    public var expiresAt: Date

    /// Creates a record.
    public init(
        id: String, sealed: Data, attempts: Int = 0, claimedUntil: Date, claim: String = "", createdAt: Date,
        expiresAt: Date
    ) {
        (self.id, self.sealed, self.attempts, self.claimedUntil) = (id, sealed, attempts, claimedUntil)
        (self.claim, self.createdAt, self.expiresAt) = (claim, createdAt, expiresAt)
    }
}

/// The mail-outbox part of the ``Store``: requests insert, background workers on any node claim, deliver and finish.
public protocol MailOutboxStore: Sendable {
    /// Adds a message to the outbox.
    func insertOutboxMail(_ mail: OutboxMailRecord) async throws(StorageError)
    /// Claims the oldest `limit` messages that are due (not held by anyone at `now`, not expired) for `claim` until
    /// `until`, counting a try for each, in one statement; none when none is due. Two workers never claim the same
    /// message at once.
    func claimOutboxMail(now: Date, until: Date, claim: String, limit: Int) async throws(StorageError)
        -> [OutboxMailRecord]
    /// Removes a delivered message if `claim` still holds it; returns whether it did.
    @discardableResult
    func finishOutboxMail(id: String, claim: String) async throws(StorageError) -> Bool
    /// Releases a message whose delivery failed, to be tried again from `retryAt`, if `claim` still holds it.
    func retryOutboxMail(id: String, claim: String, at retryAt: Date) async throws(StorageError)
    /// Deletes messages that expired before `date` (never delivered); returns how many were removed.
    @discardableResult
    func deleteExpiredOutboxMail(before date: Date) async throws(StorageError) -> Int
}

extension MailOutboxStore {
    /// Claims the oldest message that is due for `claim` until `until` (``claimOutboxMail(now:until:claim:limit:)``
    /// with a limit of one); `nil` when none is due.
    public func claimOutboxMail(now: Date, until: Date, claim: String) async throws(StorageError) -> OutboxMailRecord? {
        try await claimOutboxMail(now: now, until: until, claim: claim, limit: 1).first
    }
}
