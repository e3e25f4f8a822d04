import Foundation

extension ServerSetting {
    /// `otel_endpoint`: where OpenTelemetry traces go (OTLP over HTTP); unset, nothing is traced.
    static let otelEndpoint = ServerSetting(
        "otel_endpoint",
        help: "An OpenTelemetry collector's OTLP/HTTP URL for traces, like http://127.0.0.1:4318 (/v1/traces is added "
            + "to a URL without a path); off when not set."
    ) { value, configuration throws(ConfigurationError) in
        guard let url = URL(string: value.text), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty, url.user == nil,
            url.password == nil, url.query == nil, url.fragment == nil
        else {
            throw value.refused("expected an http:// or https:// URL without a user, query or fragment")
        }
        configuration.otelEndpoint = url
    }
}
