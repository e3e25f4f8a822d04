import Foundation
import SQLiteNIO

/// Refresh tokens in SQLite. SQLite has no data-modifying `WITH`, so a rotation is an ordered sequence of single
/// statements on the one connection: the successor first (usable the moment the rotation makes it reachable), the
/// compare-and-set, then the retirement of an unused successor it replaces, then either the grant's extension or,
/// having lost the race, the successor's removal.
extension SQLiteStore {
    public func insertRefreshToken(_ token: RefreshTokenRecord) async throws(StorageError) {
        try await query(
            """
            INSERT INTO refresh_tokens (
                token_hash, grant_id, issued_at, expires_at, rotated_at, sealed_successor, successor_hash, retired_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                Self.blob(token.tokenHash), .text(token.grantID), Self.time(token.issuedAt),
                Self.time(token.expiresAt), token.rotatedAt.map(Self.time) ?? .null, Self.blob(token.sealedSuccessor),
                Self.blob(token.successorHash), token.retiredAt.map(Self.time) ?? .null,
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
            user: row.column("user_id")?.string == nil ? nil : try Self.user(from: row, columnPrefix: "user_"),
            sessionExpiresAt: Self.optionalDate(row, "session_expires_at"))
    }

    public func rotateRefreshToken(_ rotation: RefreshTokenRotation) async throws(StorageError) -> Bool {
        let successorHash = Self.blob(rotation.successor.tokenHash)
        let retiring = Self.blob(rotation.retiredSuccessorHash)
        try await insertRefreshToken(rotation.successor)
        let rotated = try await query(
            """
            UPDATE refresh_tokens SET rotated_at = ?, sealed_successor = ?, successor_hash = ?
            WHERE token_hash = ? AND (
                (? IS NULL AND rotated_at IS NULL AND retired_at IS NULL)
                OR (successor_hash = ? AND EXISTS (
                    SELECT 1 FROM refresh_tokens s
                    WHERE s.token_hash = ? AND s.rotated_at IS NULL AND s.retired_at IS NULL)))
            RETURNING token_hash
            """,
            [
                Self.time(rotation.rotatedAt), Self.blob(rotation.sealedSuccessor), successorHash,
                Self.blob(rotation.tokenHash), retiring, retiring, retiring,
            ]
        )
        guard !rotated.isEmpty else {
            try await query("DELETE FROM refresh_tokens WHERE token_hash = ?", [successorHash])
            return false
        }
        if rotation.retiredSuccessorHash != nil {
            let retired = try await query(
                "UPDATE refresh_tokens SET retired_at = ? WHERE token_hash = ? AND rotated_at IS NULL RETURNING 1",
                [Self.time(rotation.rotatedAt), retiring]
            )
            guard !retired.isEmpty else {
                // Its holder used it between the two statements: two holders, the chain has forked.
                try await revokeGrant(id: rotation.successor.grantID, at: rotation.rotatedAt)
                return false
            }
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
            sealedSuccessor: try optionalData(row, "sealed_successor"),
            successorHash: try optionalData(row, "successor_hash"),
            retiredAt: optionalDate(row, "retired_at")
        )
    }
}
