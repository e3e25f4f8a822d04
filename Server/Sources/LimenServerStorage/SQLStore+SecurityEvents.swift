import Foundation

/// The security events, written once for both dialects.
extension SQLStore {
    public func insertSecurityEvents(_ events: [SecurityEventRecord]) async throws(StorageError) {
        guard let insert = SecurityEventRecord.insert(events, when: nil) else { return }
        try await execute(insert)
        SecurityEventMetrics.count(events)
    }

    public func securityEvents(_ filter: SecurityEventFilter, limit: Int) async throws(StorageError)
        -> [SecurityEventRecord]
    {
        var query: SQLQuery = "SELECT * FROM security_events WHERE 1 = 1"
        if let type = filter.type { query = "\(query) AND type = \(type)" }
        if let user = filter.user { query = "\(query) AND user_id = \(user)" }
        if let client = filter.client { query = "\(query) AND client_id = \(client)" }
        if let since = filter.since { query = "\(query) AND occurred_at >= \(since)" }
        if let until = filter.until { query = "\(query) AND occurred_at < \(until)" }
        if let before = filter.before {
            query = """
                \(query) AND (occurred_at < \(before.time) OR (occurred_at = \(before.time) AND id < \(before.id)))
                """
        }
        return try await read("\(query) ORDER BY occurred_at DESC, id DESC LIMIT \(limit)").map {
            row throws(StorageError) in
            try SecurityEventRecord(row: row)
        }
    }

    public func deleteSecurityEvents(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM security_events WHERE occurred_at < \(date) RETURNING id").count
    }
}

extension SecurityEventRecord {
    /// One statement inserting `events` (`nil` when there are none); with `when`, only if that condition holds (the
    /// `EXISTS` over the change a PostgreSQL statement records).
    static func insert(_ events: [SecurityEventRecord], when condition: SQLQuery?) -> SQLQuery? {
        guard !events.isEmpty else { return nil }
        let selects = events.map { event -> SQLQuery in
            let select: SQLQuery = """
                SELECT \(event.id), \(event.type), \(event.time), \(event.user), \(event.client), \(event.actor),
                    \(event.ip), \(event.userAgent), \(event.requestID), \(event.details)
                """
            guard let condition else { return select }
            return "\(select) WHERE \(condition)"
        }
        let body = selects.dropFirst().reduce(selects[0]) { all, next in "\(all) UNION ALL \(next)" }
        return """
            INSERT INTO security_events (id, type, occurred_at, user_id, client_id, actor, ip, user_agent,
                request_id, details)
            \(body)
            """
    }

    /// The event in `row`.
    init(row: some SQLRow) throws(StorageError) {
        self.init(
            id: try row.text("id"),
            type: try row.text("type"),
            time: try row.date("occurred_at"),
            user: try row.optionalText("user_id"),
            client: try row.optionalText("client_id"),
            actor: try row.optionalText("actor"),
            ip: try row.optionalText("ip"),
            userAgent: try row.optionalText("user_agent"),
            requestID: try row.optionalText("request_id"),
            details: try row.text("details")
        )
    }
}

extension SchemaMigrations {
    /// Version 29: the security events (the audit trail), swept by time, read newest first by user, client or type.
    static let securityEvents = SchemaMigration(
        version: 29,
        name: "security events",
        changes: [
            .createTable(
                TableDefinition(
                    name: "security_events",
                    columns: [
                        ColumnDefinition(name: "id", kind: .text),
                        ColumnDefinition(name: "type", kind: .text),
                        ColumnDefinition(name: "occurred_at", kind: .time),
                        ColumnDefinition(name: "user_id", kind: .text, isNullable: true),
                        ColumnDefinition(name: "client_id", kind: .text, isNullable: true),
                        ColumnDefinition(name: "actor", kind: .text, isNullable: true),
                        ColumnDefinition(name: "ip", kind: .text, isNullable: true),
                        ColumnDefinition(name: "user_agent", kind: .text, isNullable: true),
                        ColumnDefinition(name: "request_id", kind: .text, isNullable: true),
                        ColumnDefinition(name: "details", kind: .text),
                    ],
                    primaryKey: ["id"]
                )),
            .createIndex(
                name: "security_events_occurred_at", table: "security_events", columns: ["occurred_at", "id"]),
            .createIndex(
                name: "security_events_user_id", table: "security_events", columns: ["user_id", "occurred_at"]),
            .createIndex(name: "security_events_type", table: "security_events", columns: ["type", "occurred_at"]),
        ]
    )
}
