import Tracing

/// The span of one statement sent to the database, named by its first keyword (`SELECT`, `INSERT`, `WITH`), with the
/// OpenTelemetry database attributes: `db.system.name`, `db.operation.name` and `db.query.text` (the statement with its
/// placeholders: values are always bound, never written into the text).
enum StorageSpan {
    /// Runs `operation`, which sends `sql` to the `system` database (`sqlite`, `postgresql`), in a client span.
    static func run<Value, Failure: Error>(
        _ sql: @autoclosure () -> String,
        system: String,
        _ operation: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        try await OperationSpan.run(
            operationName(sql()), kind: .client,
            attributes: { attributes in
                let text = sql()
                attributes["db.system.name"] = system
                attributes["db.operation.name"] = operationName(text)
                attributes["db.query.text"] = text
            }, operation)
    }

    /// The statement's first word in capitals (`SELECT`), or `statement` when it has none.
    static func operationName(_ sql: String) -> String {
        let word = sql.drop(while: \.isWhitespace).prefix(while: \.isLetter)
        return word.isEmpty ? "statement" : word.uppercased()
    }
}
