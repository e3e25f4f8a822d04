import Foundation
import PostgresNIO

/// Refresh tokens in PostgreSQL. A refresh reads its token, grant and user in one statement and rotates in one more (the
/// rotation, the successor and the grant's extension together), so that a rotation costs two round trips.
extension PostgresStore {
    public func insertRefreshToken(_ token: RefreshTokenRecord) async throws(StorageError) {
        try await rows(
            """
            INSERT INTO refresh_tokens (
                token_hash, grant_id, issued_at, expires_at, rotated_at, sealed_successor, successor_hash, retired_at)
            VALUES (\(Self.bytes(token.tokenHash)), \(token.grantID), \(Self.seconds(token.issuedAt)),
                \(Self.seconds(token.expiresAt)), \(token.rotatedAt.map(Self.seconds)),
                \(token.sealedSuccessor.map(Self.bytes)), \(token.successorHash.map(Self.bytes)),
                \(token.retiredAt.map(Self.seconds)))
            """
        )
    }

    public func refreshToken(hash: Data) async throws(StorageError) -> RefreshTokenRecord? {
        try await rows("SELECT * FROM refresh_tokens WHERE token_hash = \(Self.bytes(hash))").first.map {
            row throws(StorageError) in try Self.refreshToken(from: row)
        }
    }

    public func refreshTokenWithGrant(hash: Data) async throws(StorageError) -> RefreshTokenWithGrant? {
        let found = try await rows(
            "\(unescaped: RefreshTokenWithGrant.selectSQL) WHERE t.token_hash = \(Self.bytes(hash))"
        )
        guard let row = found.first else { return nil }
        return RefreshTokenWithGrant(
            token: try Self.refreshToken(from: row), grant: try Self.grant(from: row, columnPrefix: "grant_"),
            user: row["user_id"].bytes == nil ? nil : try Self.user(from: row, columnPrefix: "user_"),
            sessionExpiresAt: try Self.optionalDate(row, "session_expires_at"))
    }

    public func rotateRefreshToken(_ rotation: RefreshTokenRotation) async throws(StorageError) -> Bool {
        // One statement, so one snapshot and one commit: the successor, the retirement of an unused earlier successor
        // and the grant's extension exist exactly when the rotation does. A concurrent rotation of the same token (or
        // use of the successor being retired) waits for the row lock, then finds it rotated or retired.
        let successor = rotation.successor
        let tokenHash = Self.bytes(rotation.tokenHash)
        let retiring = rotation.retiredSuccessorHash.map(Self.bytes)
        let rotated = try await rows(
            """
            WITH retired AS (
                UPDATE refresh_tokens SET retired_at = \(Self.seconds(rotation.rotatedAt))
                WHERE token_hash = \(retiring) AND rotated_at IS NULL AND retired_at IS NULL
                    AND EXISTS (
                        SELECT 1 FROM refresh_tokens WHERE token_hash = \(tokenHash) AND successor_hash = \(retiring))
                RETURNING 1
            ), rotated AS (
                UPDATE refresh_tokens
                SET rotated_at = \(Self.seconds(rotation.rotatedAt)),
                    sealed_successor = \(Self.bytes(rotation.sealedSuccessor)),
                    successor_hash = \(Self.bytes(successor.tokenHash))
                WHERE token_hash = \(tokenHash) AND (
                    (\(retiring)::BYTEA IS NULL AND rotated_at IS NULL AND retired_at IS NULL)
                    OR (successor_hash = \(retiring) AND EXISTS (SELECT 1 FROM retired)))
                RETURNING grant_id
            ), successor AS (
                INSERT INTO refresh_tokens (token_hash, grant_id, issued_at, expires_at)
                SELECT \(Self.bytes(successor.tokenHash)), \(successor.grantID), \(Self.seconds(successor.issuedAt)),
                    \(Self.seconds(successor.expiresAt))
                FROM rotated
            ), extended AS (
                UPDATE grants SET expires_at = GREATEST(expires_at, \(Self.seconds(rotation.grantExpiresAt)))
                WHERE id = \(successor.grantID) AND EXISTS (SELECT 1 FROM rotated)
            )
            SELECT 1 FROM rotated
            """
        )
        return !rotated.isEmpty
    }

    @discardableResult
    public func deleteExpiredRefreshTokens(before date: Date) async throws(StorageError) -> Int {
        try await rows("DELETE FROM refresh_tokens WHERE expires_at <= \(Self.seconds(date)) RETURNING 1").count
    }

    private static func refreshToken(from row: PostgresRandomAccessRow) throws(StorageError) -> RefreshTokenRecord {
        RefreshTokenRecord(
            tokenHash: try value(row, "token_hash", as: Data.self),
            grantID: try value(row, "grant_id", as: String.self),
            issuedAt: try date(row, "issued_at"),
            expiresAt: try date(row, "expires_at"),
            rotatedAt: try optionalDate(row, "rotated_at"),
            sealedSuccessor: try optional(row, "sealed_successor", as: Data.self),
            successorHash: try optional(row, "successor_hash", as: Data.self),
            retiredAt: try optionalDate(row, "retired_at")
        )
    }
}
