import Foundation

/// The refresh-token rotation in SQLite. SQLite has no data-modifying `WITH`, so a rotation is an ordered sequence of
/// single statements on the one connection: the successor first (usable the moment the rotation makes it reachable),
/// the compare-and-set, then the retirement of an unused successor it replaces, then either the grant's extension or,
/// having lost the race, the successor's removal.
extension SQLiteStore {
    public func rotateRefreshToken(_ rotation: RefreshTokenRotation) async throws(StorageError) -> Bool {
        let successorHash = rotation.successor.tokenHash
        let retiring = rotation.retiredSuccessorHash
        try await insertRefreshToken(rotation.successor)
        let rotated = try await execute(
            """
            UPDATE refresh_tokens
            SET rotated_at = \(rotation.rotatedAt), sealed_successor = \(rotation.sealedSuccessor),
                successor_hash = \(successorHash)
            WHERE token_hash = \(rotation.tokenHash) AND (
                (\(retiring == nil) AND rotated_at IS NULL AND retired_at IS NULL)
                OR (successor_hash = \(retiring) AND EXISTS (
                    SELECT 1 FROM refresh_tokens s
                    WHERE s.token_hash = \(retiring) AND s.rotated_at IS NULL AND s.retired_at IS NULL)))
            RETURNING token_hash
            """
        )
        guard !rotated.isEmpty else {
            try await execute("DELETE FROM refresh_tokens WHERE token_hash = \(successorHash)")
            return false
        }
        if let retiring {
            let retired = try await execute(
                """
                UPDATE refresh_tokens SET retired_at = \(rotation.rotatedAt)
                WHERE token_hash = \(retiring) AND rotated_at IS NULL RETURNING 1
                """
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
}
