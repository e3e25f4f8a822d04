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
