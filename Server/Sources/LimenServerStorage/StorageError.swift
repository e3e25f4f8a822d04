import Foundation

/// A failure of the storage layer.
public enum StorageError: Error, Sendable, Equatable, LocalizedError {
    /// The database could not be opened or created.
    case openFailed(String)
    /// A statement failed.
    case queryFailed(String)
    /// A migration failed; the schema is left at the last version that applied.
    case migrationFailed(version: Int, reason: String)
    /// A row did not hold what the schema promises.
    case corruptRow(String)
    /// The database cannot be reached for now (it restarted, the network dropped): worth trying again shortly.
    case unavailable(String)

    /// Whether it is ``unavailable(_:)``: the request may succeed if tried again shortly (answered `503`).
    public var isUnavailable: Bool {
        if case .unavailable = self { return true }
        return false
    }

    /// A stable code for logs and tests.
    public var code: String {
        switch self {
        case .openFailed: "storage.open_failed"
        case .queryFailed: "storage.query_failed"
        case .migrationFailed: "storage.migration_failed"
        case .corruptRow: "storage.corrupt_row"
        case .unavailable: "storage.unavailable"
        }
    }

    /// A human message.
    public var errorDescription: String? {
        switch self {
        case .openFailed(let reason): "Cannot open the database: \(reason)"
        case .queryFailed(let reason): "A database query failed: \(reason)"
        case .migrationFailed(let version, let reason): "Schema migration \(version) failed: \(reason)"
        case .corruptRow(let reason): "A database row is not valid: \(reason)"
        case .unavailable(let reason): "The database is unavailable: \(reason)"
        }
    }

    /// The database file at `path` cannot grow because its disk is full: ``unavailable(_:)``, since reads still work
    /// and writes do again once space is freed.
    public static func diskFull(path: String) -> StorageError {
        .unavailable("the disk holding \(path) is full")
    }
}
