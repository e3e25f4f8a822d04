import Foundation
import NIOCore
import PostgresNIO

/// How PostgreSQL runs the statements written once for both dialects.
extension PostgresStore: SQLStore {
    var dialect: SQLDialect { .postgres }

    @discardableResult
    func execute(_ query: SQLQuery) async throws(StorageError) -> [PostgresRandomAccessRow] {
        try await rows(Self.postgresQuery(query))
    }

    /// One statement: the change as a `WITH` clause, the events' insert another, conditioned on the change's rows; a
    /// failure of either fails both. (A change that has `WITH` clauses of its own writes them beside `change`: PostgreSQL
    /// allows data-modifying `WITH` clauses only at the top.)
    @discardableResult
    func execute(_ query: SQLQuery, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> [PostgresRandomAccessRow]
    {
        guard let insert = SecurityEventRecord.insert(events, when: Self.changeHappened) else {
            return try await execute(query)
        }
        let rows = try await execute("WITH change AS (\(query)), recorded AS (\(insert)) SELECT * FROM change")
        if !rows.isEmpty { SecurityEventMetrics.count(events) }
        return rows
    }

    /// The condition of an events' insert beside a `WITH change AS (…)` clause.
    static let changeHappened: SQLQuery = "EXISTS (SELECT 1 FROM change)"

    /// `query` as postgres-nio runs it, with its values bound.
    static func postgresQuery(_ query: SQLQuery) -> PostgresQuery {
        let (sql, values) = query.rendered(in: .postgres)
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let integer): bindings.append(integer)
            case .bool(let bool): bindings.append(bool)
            case .text(let text): bindings.append(text)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: bindings)
    }
}
