/// The rate limits' shared counts, written once for both dialects.
extension SQLStore {
    public func addRateCounts(_ counts: [RateCount]) async throws(StorageError) {
        guard let first = counts.first else { return }
        var rows: SQLQuery = Self.row(of: first)
        for count in counts.dropFirst() { rows = "\(rows), \(Self.row(of: count))" }
        try await execute(
            """
            INSERT INTO rate_counts (rate_limit, client_key, node, window_number, admitted) VALUES \(rows)
            ON CONFLICT (rate_limit, client_key, node, window_number)
            DO UPDATE SET admitted = rate_counts.admitted + excluded.admitted
            """)
    }

    public func rateCounts(
        fromWindow window: Int64,
        excludingNode node: String
    ) async throws(StorageError) -> [RateCount] {
        try await execute(
            "SELECT * FROM rate_counts WHERE window_number >= \(window) AND node <> \(node)"
        ).map { row throws(StorageError) in
            RateCount(
                limit: try row.text("rate_limit"), key: try row.text("client_key"), node: try row.text("node"),
                window: Int64(try row.integer("window_number")), admitted: try row.integer("admitted"))
        }
    }

    @discardableResult
    public func deleteRateCounts(beforeWindow window: Int64) async throws(StorageError) -> Int {
        try await execute("DELETE FROM rate_counts WHERE window_number < \(window) RETURNING 1").count
    }

    /// `(limit, key, node, window, admitted)` of `count`, bound.
    private static func row(of count: RateCount) -> SQLQuery {
        "(\(count.limit), \(count.key), \(count.node), \(count.window), \(count.admitted))"
    }
}
