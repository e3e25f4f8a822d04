import Foundation

/// Flow interactions, written once for both dialects.
extension SQLStore {
    public func insertFlowInteraction(_ interaction: FlowInteractionRecord) async throws(StorageError) {
        try await execute(
            """
            INSERT INTO flow_interactions (id_hash, flow, node, client_id, request, context, attempts, revision, status,
                created_at, expires_at)
            VALUES (\(interaction.idHash), \(interaction.flow), \(interaction.node), \(interaction.clientID),
                \(interaction.request), \(interaction.context), \(interaction.attempts), \(interaction.revision),
                \(interaction.status.rawValue), \(interaction.createdAt), \(interaction.expiresAt))
            """
        )
    }

    public func flowInteraction(idHash: Data) async throws(StorageError) -> FlowInteractionRecord? {
        try await read("SELECT * FROM flow_interactions WHERE id_hash = \(idHash)").first.map {
            row throws(StorageError) in try FlowInteractionRecord(row: row)
        }
    }

    public func updateFlowInteraction(_ interaction: FlowInteractionRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        !(try await execute(
            """
            UPDATE flow_interactions
            SET flow = \(interaction.flow), node = \(interaction.node), context = \(interaction.context),
                revision = \(interaction.revision),
                status = \(interaction.status.rawValue)
            WHERE id_hash = \(interaction.idHash) AND revision = \(interaction.revision - 1)
            RETURNING 1
            """,
            recording: events
        )).isEmpty
    }

    public func countFlowInteractionAttempt(idHash: Data, maximum: Int) async throws(StorageError) -> Int? {
        try await execute(
            """
            UPDATE flow_interactions SET attempts = attempts + 1
            WHERE id_hash = \(idHash) AND status = 'active' AND attempts < \(maximum)
            RETURNING attempts
            """
        ).first.map { row throws(StorageError) in try row.integer("attempts") }
    }

    public func refundFlowInteractionAttempt(idHash: Data) async throws(StorageError) {
        try await execute(
            """
            UPDATE flow_interactions SET attempts = \(SQLFragment.greatest)(attempts - 1, 0) WHERE id_hash = \(idHash)
            """)
    }

    @discardableResult
    public func deleteExpiredFlowInteractions(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM flow_interactions WHERE expires_at <= \(date) RETURNING 1").count
    }
}

extension FlowInteractionRecord {
    /// The interaction in a row of `flow_interactions`.
    init(row: some SQLRow) throws(StorageError) {
        guard let status = Status(rawValue: try row.text("status")) else {
            throw .corruptRow("flow_interactions.status")
        }
        self.init(
            idHash: try row.data("id_hash"),
            flow: try row.text("flow"),
            node: try row.text("node"),
            clientID: try row.text("client_id"),
            request: try row.data("request"),
            context: try row.data("context"),
            attempts: try row.integer("attempts"),
            revision: try row.integer("revision"),
            status: status,
            createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at")
        )
    }
}
