import Foundation

/// The disabled users part of the ``Store``: users an admin stopped from signing in and refreshing, until enabled
/// again. The mark goes with its user: deleting the user deletes it.
public protocol UserDisablementStore: Sendable {
    /// Marks the user with subject `userID` disabled at `date` and signs them out everywhere (as
    /// ``BrowserSessionStore/deleteEverySession(subject:recording:)``), with `events`, when they were enabled until
    /// now (one unit: see ``SecurityEventStore``); returns whether they were: `false` for an unknown or already disabled
    /// user.
    @discardableResult
    func disableUser(_ userID: String, at date: Date, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    /// Lifts the mark of the user with subject `userID`, with `events` when they were disabled (one unit); returns
    /// whether they were.
    @discardableResult
    func enableUser(_ userID: String, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool
    /// When the user with subject `userID` was disabled; `nil` when they are not (or there is no such user).
    func disabledAt(userID: String) async throws(StorageError) -> Date?
}
