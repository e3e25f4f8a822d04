import Foundation

/// How many requests one node admitted under one rate limit for one client key in one window (``RateCountStore``).
public struct RateCount: Sendable, Equatable, Hashable {
    /// The rate limit (`post`, `sign_in`, `authorize`).
    public var limit: String
    /// The client key: an address, or an IPv6 /64.
    public var key: String
    /// The node that admitted them.
    public var node: String
    /// The window: whole windows since 1970.
    public var window: Int64
    /// How many it admitted.
    public var admitted: Int

    /// Creates a count.
    public init(limit: String, key: String, node: String, window: Int64, admitted: Int) {
        (self.limit, self.key, self.node, self.window, self.admitted) = (limit, key, node, window, admitted)
    }
}

/// The nodes' shared account of what their rate limits admitted, so that a limit holds for the deployment: each node
/// adds what it admitted, and takes off its own buckets what the others did.
public protocol RateCountStore: Sendable {
    /// Adds each count's `admitted` to the stored total of its limit, key, node and window, in one statement.
    func addRateCounts(_ counts: [RateCount]) async throws(StorageError)
    /// The totals of windows from `window` on, of every node but `node`.
    func rateCounts(fromWindow window: Int64, excludingNode node: String) async throws(StorageError) -> [RateCount]
    /// Forgets the windows before `window`; returns how many totals were removed.
    @discardableResult
    func deleteRateCounts(beforeWindow window: Int64) async throws(StorageError) -> Int
}

/// Version 22: the rate limits' shared counts (``RateCountStore``).
enum RateCountMigration {
    /// The migration.
    static let migration = SchemaMigration(
        version: 22,
        name: "rate limit counts shared by the nodes",
        changes: [
            .createTable(
                TableDefinition(
                    name: "rate_counts",
                    columns: [
                        ColumnDefinition(name: "rate_limit", kind: .text),
                        ColumnDefinition(name: "client_key", kind: .text),
                        ColumnDefinition(name: "node", kind: .text),
                        ColumnDefinition(name: "window_number", kind: .integer),
                        ColumnDefinition(name: "admitted", kind: .integer),
                    ],
                    primaryKey: ["rate_limit", "client_key", "node", "window_number"]
                )),
            .createIndex(name: "rate_counts_window_number", table: "rate_counts", columns: ["window_number"]),
        ]
    )
}
