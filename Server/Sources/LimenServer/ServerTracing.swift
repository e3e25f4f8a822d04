import Foundation
import LimenServerCore
import Logging
import OTel
import ServiceLifecycle

/// OpenTelemetry traces (`otel_endpoint`): swift-otel's tracer with its batch span processor and OTLP/HTTP (protobuf)
/// exporter, service name `limen-server`. Logs and metrics stay where they are (the log, `/metrics`).
///
/// ```swift
/// let tracing = try ServerTracing.bootstrap(configuration: configuration, environment: environment, logger: logger)
/// let services: [any Service] = if let tracing { [tracing, server] } else { [server] }
/// try await ServiceGroup(services: services, logger: logger).run()
/// ```
public enum ServerTracing {
    /// The `service.name` of every span.
    public static let serviceName = "limen-server"

    /// Bootstraps the process's tracer for `configuration`'s `otel_endpoint` and returns the service that exports the
    /// spans, to run in the server's `ServiceGroup` (started before the server, so stopped after it: the last spans are
    /// flushed); `nil`, with nothing bootstrapped, when `otel_endpoint` is not set. The OpenTelemetry variables of
    /// `environment` refine it (`OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_TRACES_SAMPLER`, `OTEL_BSP_SCHEDULE_DELAY`, …).
    /// Call it once per process.
    public static func bootstrap(
        configuration: ServerConfiguration,
        environment: [String: String],
        logger: Logger
    ) throws -> (any Service)? {
        guard let endpoint = configuration.otelEndpoint else { return nil }
        var otel = OTel.Configuration.default
        otel.serviceName = serviceName
        otel.diagnosticLogger = .custom(logger)
        otel.logs.enabled = false
        otel.metrics.enabled = false
        otel.traces.exporter = .otlp
        otel.traces.otlpExporter.protocol = .httpProtobuf
        otel.traces.otlpExporter.endpoint = tracesURL(endpoint)
        return try OTel.bootstrap(configuration: otel, environment: environment)
    }

    /// Where spans are posted: `endpoint` itself, or its `/v1/traces` when it has no path (as the OpenTelemetry SDKs
    /// treat `OTEL_EXPORTER_OTLP_ENDPOINT`).
    static func tracesURL(_ endpoint: URL) -> String {
        let text = endpoint.absoluteString
        guard endpoint.path.isEmpty || endpoint.path == "/" else { return text }
        return (text.hasSuffix("/") ? String(text.dropLast()) : text) + "/v1/traces"
    }
}
