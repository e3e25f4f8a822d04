import Foundation

/// A user's sessions as an admin sees them: what signing them out everywhere
/// (``BrowserSessionStore/deleteEverySession(subject:recording:)``) ends.
public protocol UserSessionStore: Sendable {
    /// The grants of `subject` neither revoked nor expired at `date`, newest first.
    func activeGrants(subject: String, at date: Date) async throws(StorageError) -> [GrantRecord]
    /// The browser sessions of `subject` unexpired at `now`, the latest sign-in first.
    func browserSessions(subject: String, now: Date) async throws(StorageError) -> [BrowserSessionRecord]
}
