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

    /// One statement: the change as a `WITH` clause, each follow-up and the events' insert another, conditioned on the
    /// change's rows; a failure of any fails all. (A change that has `WITH` clauses of its own writes them beside
    /// `change`: PostgreSQL allows data-modifying `WITH` clauses only at the top.)
    @discardableResult
    func execute(
        _ query: SQLQuery, followedBy followUps: (_ whenChanged: SQLQuery) -> [SQLQuery],
        recording events: [SecurityEventRecord]
    ) async throws(StorageError) -> [PostgresRandomAccessRow] {
        let unit =
            followUps(Self.changeHappened)
            + [SecurityEventRecord.insert(events, when: Self.changeHappened)].compactMap { $0 }
        guard !unit.isEmpty else { return try await execute(query) }
        let clauses = unit.enumerated().reduce("WITH change AS (\(query))" as SQLQuery) { all, step in
            "\(all), \(SQLQuery(stringLiteral: "step\(step.offset)")) AS (\(step.element))"
        }
        let rows = try await execute("\(clauses) SELECT * FROM change")
        if !rows.isEmpty { SecurityEventMetrics.count(events) }
        return rows
    }

    /// The condition of a follow-up or an events' insert beside a `WITH change AS (…)` clause.
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
