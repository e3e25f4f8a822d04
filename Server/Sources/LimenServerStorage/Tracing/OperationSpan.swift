import Tracing

/// A span around one operation (a storage call, a password hash, an outgoing request), child of the request's span.
///
/// Without `otel_endpoint` no tracer is bootstrapped and the global tracer is swift-distributed-tracing's no-op one:
/// then ``run(_:kind:attributes:finish:_:)`` runs the operation directly, with no span, no task-local context and no
/// attribute built, so the hot paths pay one read of the global tracer.
///
/// ```swift
/// let rows = try await OperationSpan.run("SELECT", kind: .client, attributes: { $0["db.system.name"] = "sqlite" }) {
///     () throws(StorageError) in try await connection.rows(sql)
/// }
/// ```
package enum OperationSpan {
    /// Whether a tracer other than the no-op one was bootstrapped.
    package static var isRecording: Bool { !(InstrumentationSystem.tracer is NoOpTracer) }

    /// Runs `operation` in a span named `name` of `kind`, with `attributes`, then `finish` given its result; an error
    /// is recorded on the span and marks it failed, and is rethrown as it was (typed). Without a tracer, only
    /// `operation` runs; likewise outside any span (a background service's work) unless `startsTrace`: the expiry
    /// sweep's or the outbox's statements would each be a trace of one span.
    package static func run<Value, Failure: Error>(
        _ name: @autoclosure () -> String,
        kind: SpanKind = .internal,
        startsTrace: Bool = false,
        attributes: (inout SpanAttributes) -> Void = { _ in },
        finish: (Value, any Span) -> Void = { _, _ in },
        _ operation: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        guard isRecording, startsTrace || InstrumentationContext.current != nil else { return try await operation() }
        let span = startSpan(name(), ofKind: kind)
        defer { span.end() }
        span.updateAttributes(attributes)
        let result: Result<Value, Failure> = await InstrumentationContext.$current.withValue(span.context) {
            do throws(Failure) {
                return .success(try await operation())
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value):
            finish(value, span)
            return value
        case .failure(let error):
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            throw error
        }
    }
}
