import Foundation
import SQLiteNIO

/// Refresh tokens in SQLite. SQLite has no data-modifying `WITH`, so a rotation is an ordered sequence of single
/// statements on the one connection: the successor first (usable the moment the rotation makes it reachable), the
/// compare-and-set, then either the grant's extension or, having lost the race, the successor's removal.
extension SQLiteStore {
    public func insertRefreshToken(_ token: RefreshTokenRecord) async throws(StorageError) {
        try await query(
            """
            INSERT INTO refresh_tokens (token_hash, grant_id, issued_at, expires_at, rotated_at, sealed_successor)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [
                Self.blob(token.tokenHash), .text(token.grantID), Self.time(token.issuedAt),
                Self.time(token.expiresAt), token.rotatedAt.map(Self.time) ?? .null, Self.blob(token.sealedSuccessor),
            ]
        )
    }

    public func refreshToken(hash: Data) async throws(StorageError) -> RefreshTokenRecord? {
        try await query("SELECT * FROM refresh_tokens WHERE token_hash = ?", [Self.blob(hash)]).first.map {
            row throws(StorageError) in try Self.refreshToken(from: row)
        }
    }

    public func refreshTokenWithGrant(hash: Data) async throws(StorageError) -> RefreshTokenWithGrant? {
        let found = try await query(
            RefreshTokenWithGrant.selectSQL + " WHERE t.token_hash = ?",
            [Self.blob(hash)]
        )
        guard let row = found.first else { return nil }
        return RefreshTokenWithGrant(
            token: try Self.refreshToken(from: row), grant: try Self.grant(from: row, columnPrefix: "grant_"),
            user: row.column("user_id")?.string == nil ? nil : try Self.user(from: row, columnPrefix: "user_"))
    }

    public func rotateRefreshToken(_ rotation: RefreshTokenRotation) async throws(StorageError) -> Bool {
        let successorHash = Self.blob(rotation.successor.tokenHash)
        try await insertRefreshToken(rotation.successor)
        let rotated = try await query(
            """
            UPDATE refresh_tokens SET rotated_at = ?, sealed_successor = ?
            WHERE token_hash = ? AND rotated_at IS NULL
            RETURNING token_hash
            """,
            [Self.time(rotation.rotatedAt), Self.blob(rotation.sealedSuccessor), Self.blob(rotation.tokenHash)]
        )
        guard !rotated.isEmpty else {
            try await query("DELETE FROM refresh_tokens WHERE token_hash = ?", [successorHash])
            return false
        }
        try await extendGrant(id: rotation.successor.grantID, until: rotation.grantExpiresAt)
        return true
    }

    @discardableResult
    public func deleteExpiredRefreshTokens(before date: Date) async throws(StorageError) -> Int {
        try await query("DELETE FROM refresh_tokens WHERE expires_at <= ? RETURNING 1", [Self.time(date)]).count
    }

    private static func refreshToken(from row: SQLiteRow) throws(StorageError) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: try data(row, "token_hash"),
            grantID: try text(row, "grant_id"),
            issuedAt: try date(row, "issued_at"),
            expiresAt: try date(row, "expires_at"),
            rotatedAt: optionalDate(row, "rotated_at"),
            sealedSuccessor: row.column("sealed_successor")?.blob == nil ? nil : try data(row, "sealed_successor")
        )
    }
}
