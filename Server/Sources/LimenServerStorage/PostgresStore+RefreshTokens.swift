import Foundation

/// The refresh-token rotation in PostgreSQL: one statement (the rotation, the successor and the grant's extension
/// together), so that a refresh costs two round trips with the read of its token, grant and user.
extension PostgresStore {
    public func rotateRefreshToken(_ rotation: RefreshTokenRotation) async throws(StorageError) -> Bool {
        // One statement, so one snapshot and one commit: the successor, the retirement of an unused earlier successor
        // and the grant's extension exist exactly when the rotation does. A concurrent rotation of the same token (or
        // use of the successor being retired) waits for the row lock, then finds it rotated or retired.
        let successor = rotation.successor
        let retiring = rotation.retiredSuccessorHash
        let rotated = try await execute(
            """
            WITH retired AS (
                UPDATE refresh_tokens SET retired_at = \(rotation.rotatedAt)
                WHERE token_hash = \(retiring) AND rotated_at IS NULL AND retired_at IS NULL
                    AND EXISTS (
                        SELECT 1 FROM refresh_tokens
                        WHERE token_hash = \(rotation.tokenHash) AND successor_hash = \(retiring))
                RETURNING 1
            ), rotated AS (
                UPDATE refresh_tokens
                SET rotated_at = \(rotation.rotatedAt), sealed_successor = \(rotation.sealedSuccessor),
                    successor_hash = \(successor.tokenHash)
                WHERE token_hash = \(rotation.tokenHash) AND (
                    (\(retiring == nil) AND rotated_at IS NULL AND retired_at IS NULL)
                    OR (successor_hash = \(retiring) AND EXISTS (SELECT 1 FROM retired)))
                RETURNING grant_id
            ), successor AS (
                INSERT INTO refresh_tokens (token_hash, grant_id, issued_at, expires_at)
                SELECT \(successor.tokenHash), \(successor.grantID), \(successor.issuedAt), \(successor.expiresAt)
                FROM rotated
            ), extended AS (
                UPDATE grants SET expires_at = GREATEST(expires_at, \(rotation.grantExpiresAt))
                WHERE id = \(successor.grantID) AND EXISTS (SELECT 1 FROM rotated)
            )
            SELECT 1 FROM rotated
            """
        )
        return !rotated.isEmpty
    }
}
