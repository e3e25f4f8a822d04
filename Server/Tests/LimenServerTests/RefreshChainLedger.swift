import Foundation
import Testing

@testable import LimenServerCore
@testable import LimenServerStorage

/// What the database holds of refresh-token chains after a fault test: whether a token got two successors (one
/// rotation committed twice, on two nodes or around a lost answer).
///
/// Each rotation writes its successor into the old token's `successor_hash`, so a grant whose tokens form one chain has
/// exactly one token that no other names (its first) and exactly one neither rotated nor retired (its latest). A token
/// rotated twice leaves a successor that no token names and that is still live.
enum RefreshChainLedger {
    /// The tokens of one grant in the database.
    struct Grant: Sendable, Equatable {
        /// Refresh tokens stored for the grant.
        var tokens: Int
        /// Tokens neither rotated nor retired: the ones the grant may still be refreshed with.
        var live: Int
        /// Tokens retired unused (their predecessor was rotated anew).
        var retired: Int
        /// Tokens no other token names as its successor.
        var unnamed: Int
    }

    /// The grant of `token`, the first token of a chain that, by the client's count, got `received` tokens in all (its
    /// first included); a test failure when the database holds more or fewer, or any but one chain.
    static func expectOneChain(from token: String, received: Int, in store: PostgresStore) async throws {
        let hash = RandomIdentifier.hash(token)
        let rows = try await store.execute(
            """
            SELECT count(*) AS tokens,
                count(*) FILTER (WHERE rotated_at IS NULL AND retired_at IS NULL) AS live,
                count(*) FILTER (WHERE retired_at IS NOT NULL) AS retired,
                count(*) FILTER (
                    WHERE NOT EXISTS (SELECT 1 FROM refresh_tokens p WHERE p.successor_hash = t.token_hash)
                ) AS unnamed
            FROM refresh_tokens t
            WHERE t.grant_id = (SELECT grant_id FROM refresh_tokens WHERE token_hash = \(hash))
            """)
        let row = try #require(rows.first)
        let grant = Grant(
            tokens: try row.integer("tokens"), live: try row.integer("live"), retired: try row.integer("retired"),
            unnamed: try row.integer("unnamed"))
        #expect(grant == Grant(tokens: received, live: 1, retired: 0, unnamed: 1), "a chain forked or lost a token")
    }

    /// How many grants in the database have more than one live token (a token that got two successors).
    static func forkedGrants(in store: PostgresStore) async throws -> Int {
        let rows = try await store.execute(
            """
            SELECT count(*) AS forked FROM (
                SELECT grant_id FROM refresh_tokens WHERE rotated_at IS NULL AND retired_at IS NULL
                GROUP BY grant_id HAVING count(*) > 1
            ) AS forks
            """)
        return try #require(rows.first).integer("forked")
    }
}
