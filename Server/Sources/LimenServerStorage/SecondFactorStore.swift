import Foundation

/// A user's two-step sign-in: the TOTP secret their authenticator app holds (sealed at rest) with the last time step a
/// code of it signed in, and the hashes of their unused recovery codes. A user has one while two-step sign-in is on.
public struct SecondFactorRecord: Sendable, Equatable {
    /// The user it protects.
    public var userID: String
    /// The TOTP secret, sealed under a key derived from the master key and bound to the user.
    public var sealedTOTPSecret: Data
    /// The time step of the latest code accepted; a code of it or an earlier step is never accepted again.
    public var lastTOTPStep: Int64?
    /// The SHA-256 of each recovery code not used yet (32 bytes each).
    public var recoveryCodeHashes: [Data]
    /// When two-step sign-in was turned on.
    public var enabledAt: Date

    /// Makes it of its parts.
    public init(
        userID: String, sealedTOTPSecret: Data, lastTOTPStep: Int64? = nil, recoveryCodeHashes: [Data],
        enabledAt: Date
    ) {
        (self.userID, self.sealedTOTPSecret, self.lastTOTPStep) = (userID, sealedTOTPSecret, lastTOTPStep)
        (self.recoveryCodeHashes, self.enabledAt) = (recoveryCodeHashes, enabledAt)
    }
}

/// The second factors part of the ``Store``. Every change is one statement, so two requests racing with the same code
/// never both succeed: a TOTP step is recorded only if it is later than the stored one, and the recovery codes are
/// replaced only if they are still those the caller read.
public protocol SecondFactorStore: Sendable {
    /// User `userID`'s two-step sign-in, or `nil` when it is off.
    func secondFactor(userID: String) async throws(StorageError) -> SecondFactorRecord?
    /// Turns two-step sign-in on with `record`, writing `events` with it in one unit; `false` when it is on already
    /// (nothing changes, no event).
    func insertSecondFactor(_ record: SecondFactorRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    /// Records that a code of time step `step` signed user `userID` in, only if `step` is later than the stored one;
    /// returns whether it did.
    func recordTOTPStep(userID: String, step: Int64) async throws(StorageError) -> Bool
    /// Replaces user `userID`'s recovery codes with `new`, only if they are still `old`; returns whether it did.
    func replaceRecoveryCodes(userID: String, old: [Data], new: [Data]) async throws(StorageError) -> Bool
    /// Turns user `userID`'s two-step sign-in off, writing `events` with it in one unit; `false` when it was off.
    func deleteSecondFactor(userID: String, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool
}

extension SecondFactorRecord {
    /// The length of a recovery code's hash.
    static let recoveryCodeHashLength = 32

    /// `hashes` as one column: the hashes one after another.
    static func packed(_ hashes: [Data]) -> Data {
        hashes.reduce(into: Data()) { $0.append($1) }
    }

    /// The hashes of a column written by ``packed(_:)``; `nil` when its length is not a whole number of hashes.
    static func unpacked(_ column: Data) -> [Data]? {
        let bytes = Array(column)
        guard bytes.count % recoveryCodeHashLength == 0 else { return nil }
        return stride(from: 0, to: bytes.count, by: recoveryCodeHashLength).map {
            Data(bytes[$0..<$0 + recoveryCodeHashLength])
        }
    }
}

/// Version 25: two-step sign-in (``SecondFactorStore``), one row per user who turned it on, gone with the user.
enum SecondFactorMigration {
    /// The migration.
    static let migration = SchemaMigration(
        version: 25,
        name: "second factors",
        changes: [
            .createTable(
                TableDefinition(
                    name: "second_factors",
                    columns: [
                        ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
                        ColumnDefinition(name: "totp_secret", kind: .bytes),
                        ColumnDefinition(name: "totp_last_step", kind: .integer, isNullable: true),
                        ColumnDefinition(name: "recovery_codes", kind: .bytes),
                        ColumnDefinition(name: "enabled_at", kind: .time),
                    ],
                    primaryKey: ["user_id"]
                ))
        ]
    )
}
