import Foundation

/// The event webhooks and their deliveries, written once for both dialects.
extension SQLStore {
    public func insertWebhook(_ webhook: WebhookRecord, recording events: [SecurityEventRecord])
        async throws(StorageError)
    {
        try await execute(
            """
            INSERT INTO webhooks (id, url, events, description, sealed_secret, created_at, updated_at)
            VALUES (\(webhook.id), \(webhook.url), \(webhook.events), \(webhook.description), \(webhook.sealedSecret),
                \(webhook.createdAt), \(webhook.updatedAt))
            RETURNING id
            """,
            recording: events)
    }

    public func webhooks() async throws(StorageError) -> [WebhookRecord] {
        try await read("SELECT * FROM webhooks ORDER BY created_at, id").map { row throws(StorageError) in
            try WebhookRecord(row: row)
        }
    }

    public func webhook(id: String) async throws(StorageError) -> WebhookRecord? {
        try await read("SELECT * FROM webhooks WHERE id = \(id)").first.map { row throws(StorageError) in
            try WebhookRecord(row: row)
        }
    }

    public func updateWebhook(_ webhook: WebhookRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            """
            UPDATE webhooks SET url = \(webhook.url), events = \(webhook.events), description = \(webhook.description),
                sealed_secret = \(webhook.sealedSecret), updated_at = \(webhook.updatedAt)
            WHERE id = \(webhook.id) RETURNING id
            """,
            recording: events
        )).isEmpty
    }

    public func deleteWebhook(id: String, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool {
        // The deliveries go with it (ON DELETE CASCADE).
        !(try await execute("DELETE FROM webhooks WHERE id = \(id) RETURNING id", recording: events)).isEmpty
    }

    public func insertWebhookDeliveries(_ deliveries: [WebhookDeliveryRecord]) async throws(StorageError) {
        guard !deliveries.isEmpty else { return }
        // Each row only while its webhook exists (one deleted meanwhile gets none); the last SELECT's WHERE also keeps
        // SQLite from reading ON CONFLICT as part of a join.
        let rows = deliveries.map { delivery -> SQLQuery in
            """
            SELECT \(delivery.id), \(delivery.webhookID), \(delivery.eventID), \(delivery.eventType), \(delivery.body),
                \(delivery.status.rawValue), \(delivery.attempts), \(delivery.claimedUntil), \(delivery.claim),
                \(delivery.createdAt), \(delivery.retryUntil)
            WHERE EXISTS (SELECT 1 FROM webhooks WHERE id = \(delivery.webhookID))
            """
        }
        let selects = rows.dropFirst().reduce(rows[0]) { all, next in "\(all) UNION ALL \(next)" }
        try await execute(
            """
            INSERT INTO webhook_deliveries (id, webhook_id, event_id, event_type, body, status, attempts,
                claimed_until, claim, created_at, retry_until)
            \(selects)
            ON CONFLICT (webhook_id, event_id) DO NOTHING
            """)
    }

    public func claimWebhookDeliveries(now: Date, until: Date, claim: String, limit: Int) async throws(StorageError)
        -> [WebhookDeliveryRecord]
    {
        // As the mail outbox: the outer condition is checked again on the rows PostgreSQL locked, and SKIP LOCKED lets
        // a second worker pick the next ones.
        try await execute(
            """
            UPDATE webhook_deliveries SET claimed_until = \(until), claim = \(claim), attempts = attempts + 1
            WHERE id IN (
                SELECT id FROM webhook_deliveries WHERE status = 'pending' AND claimed_until <= \(now)
                ORDER BY claimed_until, id LIMIT \(limit) \(SQLFragment.forUpdateSkipLocked)
            ) AND status = 'pending' AND claimed_until <= \(now)
            RETURNING *
            """
        ).map { row throws(StorageError) in try WebhookDeliveryRecord(row: row) }
    }

    @discardableResult
    public func finishWebhookDelivery(id: String, claim: String, _ attempt: WebhookAttemptRecord)
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            """
            UPDATE webhook_deliveries SET status = \(attempt.status.rawValue), claimed_until = \(attempt.nextAttemptAt),
                claim = '', last_attempt_at = \(attempt.at), last_status_code = \(attempt.statusCode),
                last_error = \(attempt.error)
            WHERE id = \(id) AND claim = \(claim) RETURNING id
            """
        )).isEmpty
    }

    public func webhookDeliveries(webhookID: String, before: String?, limit: Int) async throws(StorageError)
        -> [WebhookDeliveryRecord]
    {
        var query: SQLQuery = "SELECT * FROM webhook_deliveries WHERE webhook_id = \(webhookID)"
        if let before { query = "\(query) AND id < \(before)" }
        return try await read("\(query) ORDER BY id DESC LIMIT \(limit)").map { row throws(StorageError) in
            try WebhookDeliveryRecord(row: row)
        }
    }

    public func retryWebhookDelivery(
        id: String, webhookID: String, now: Date, retryUntil: Date, recording events: [SecurityEventRecord]
    ) async throws(StorageError) -> WebhookDeliveryRetry {
        let retried = try await execute(
            """
            UPDATE webhook_deliveries SET status = 'pending', claimed_until = \(now), claim = '',
                retry_until = \(retryUntil)
            WHERE id = \(id) AND webhook_id = \(webhookID) AND (claim = '' OR claimed_until <= \(now))
            RETURNING *
            """,
            recording: events
        ).first
        if let retried { return .retried(try WebhookDeliveryRecord(row: retried)) }
        let exists = try await !read(
            "SELECT id FROM webhook_deliveries WHERE id = \(id) AND webhook_id = \(webhookID)"
        ).isEmpty
        return exists ? .inFlight : .notFound
    }

    @discardableResult
    public func deleteFinishedWebhookDeliveries(before date: Date) async throws(StorageError) -> Int {
        try await execute(
            "DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < \(date) RETURNING id"
        ).count
    }

    public func webhookDispatchCursor() async throws(StorageError) -> Date? {
        try await read("SELECT read_until FROM webhook_dispatch WHERE name = 'events'").first.map {
            row throws(StorageError) in try row.date("read_until")
        }
    }

    public func advanceWebhookDispatchCursor(to time: Date) async throws(StorageError) {
        try await execute(
            """
            INSERT INTO webhook_dispatch (name, read_until) VALUES ('events', \(time))
            ON CONFLICT (name) DO UPDATE SET read_until = \(SQLFragment.greatest)(webhook_dispatch.read_until,
                excluded.read_until)
            """)
    }

    public func securityEvents(after position: SecurityEventPosition, limit: Int) async throws(StorageError)
        -> [SecurityEventRecord]
    {
        try await read(
            """
            SELECT * FROM security_events
            WHERE occurred_at > \(position.time) OR (occurred_at = \(position.time) AND id > \(position.id))
            ORDER BY occurred_at, id LIMIT \(limit)
            """
        ).map { row throws(StorageError) in try SecurityEventRecord(row: row) }
    }
}

extension WebhookRecord {
    /// The webhook in a row of `webhooks`.
    init(row: some SQLRow) throws(StorageError) {
        self.init(
            id: try row.text("id"), url: try row.text("url"), events: try row.strings("events"),
            description: try row.text("description"), sealedSecret: try row.data("sealed_secret"),
            createdAt: try row.date("created_at"), updatedAt: try row.date("updated_at"))
    }
}

extension WebhookDeliveryRecord {
    /// The delivery in a row of `webhook_deliveries`.
    init(row: some SQLRow) throws(StorageError) {
        self.init(
            id: try row.text("id"), webhookID: try row.text("webhook_id"), eventID: try row.text("event_id"),
            eventType: try row.text("event_type"), body: try row.text("body"),
            status: try row.value("status", as: WebhookDeliveryStatus.self), attempts: try row.integer("attempts"),
            claimedUntil: try row.date("claimed_until"), claim: try row.text("claim"),
            createdAt: try row.date("created_at"), retryUntil: try row.date("retry_until"),
            lastAttemptAt: try row.optionalDate("last_attempt_at"),
            lastStatusCode: try row.optionalInteger("last_status_code"), lastError: try row.optionalText("last_error"))
    }
}

extension SchemaMigrations {
    /// Version 30: the event webhooks, their deliveries (one per webhook and event, claimed by due time, listed newest
    /// first), and how far the dispatcher has read the security events.
    static let webhooks = SchemaMigration(
        version: 30,
        name: "event webhooks",
        changes: [
            .createTable(
                TableDefinition(
                    name: "webhooks",
                    columns: [
                        ColumnDefinition(name: "id", kind: .text),
                        ColumnDefinition(name: "url", kind: .text),
                        ColumnDefinition(name: "events", kind: .text),
                        ColumnDefinition(name: "description", kind: .text),
                        ColumnDefinition(name: "sealed_secret", kind: .bytes),
                        ColumnDefinition(name: "created_at", kind: .time),
                        ColumnDefinition(name: "updated_at", kind: .time),
                    ],
                    primaryKey: ["id"])),
            .createTable(
                TableDefinition(
                    name: "webhook_deliveries",
                    columns: [
                        ColumnDefinition(name: "id", kind: .text),
                        ColumnDefinition(
                            name: "webhook_id", kind: .text, references: ("webhooks", "id", .cascade)),
                        ColumnDefinition(name: "event_id", kind: .text),
                        ColumnDefinition(name: "event_type", kind: .text),
                        ColumnDefinition(name: "body", kind: .text),
                        ColumnDefinition(name: "status", kind: .text),
                        ColumnDefinition(name: "attempts", kind: .integer),
                        ColumnDefinition(name: "claimed_until", kind: .time),
                        ColumnDefinition(name: "claim", kind: .text),
                        ColumnDefinition(name: "created_at", kind: .time),
                        ColumnDefinition(name: "retry_until", kind: .time),
                        ColumnDefinition(name: "last_attempt_at", kind: .time, isNullable: true),
                        ColumnDefinition(name: "last_status_code", kind: .integer, isNullable: true),
                        ColumnDefinition(name: "last_error", kind: .text, isNullable: true),
                    ],
                    primaryKey: ["id"],
                    unique: [["webhook_id", "event_id"]])),
            .createIndex(
                name: "webhook_deliveries_due", table: "webhook_deliveries", columns: ["status", "claimed_until"]),
            .createIndex(
                name: "webhook_deliveries_webhook", table: "webhook_deliveries", columns: ["webhook_id", "id"]),
            .createTable(
                TableDefinition(
                    name: "webhook_dispatch",
                    columns: [
                        ColumnDefinition(name: "name", kind: .text),
                        ColumnDefinition(name: "read_until", kind: .time),
                    ],
                    primaryKey: ["name"])),
        ]
    )
}
