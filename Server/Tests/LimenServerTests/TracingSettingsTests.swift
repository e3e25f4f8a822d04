import Foundation
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("OpenTelemetry settings and span contents: otel_endpoint, what a span may show")
struct TracingSettingsTests {
    @Test("traces are off by default, and otel_endpoint is read from the flag over the variable")
    func endpointSetting() throws {
        #expect(try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [:]).otelEndpoint == nil)
        let environment = ["LIMEN_OTEL_ENDPOINT": "http://127.0.0.1:4318"]
        let fromEnvironment = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: environment)
        #expect(fromEnvironment.otelEndpoint?.absoluteString == "http://127.0.0.1:4318")
        let flags = ConfigurationFlags(["--otel-endpoint": "https://collector.example/otlp/v1/traces"])
        let fromFlags = try ServerConfiguration.resolve(flags: flags, environment: environment)
        #expect(fromFlags.otelEndpoint?.absoluteString == "https://collector.example/otlp/v1/traces")
    }

    @Test(
        "an otel_endpoint that is not an http(s) URL, or carries a user, a query or a fragment, is refused naming its key",
        arguments: [
            "collector:4318", "ftp://collector.example", "http://", "http://user:secret@collector.example",
            "https://collector.example/v1/traces?token=1", "https://collector.example/#traces", "",
        ])
    func refusedEndpoint(_ value: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(flags: ConfigurationFlags(["--otel-endpoint": value]), environment: [:])
        }
        #expect(error?.key == "--otel-endpoint")
    }

    @Test(
        "spans go to /v1/traces of an endpoint without a path, else to the endpoint as given",
        arguments: [
            ("http://127.0.0.1:4318", "http://127.0.0.1:4318/v1/traces"),
            ("http://127.0.0.1:4318/", "http://127.0.0.1:4318/v1/traces"),
            ("https://collector.example/otlp/v1/traces", "https://collector.example/otlp/v1/traces"),
        ])
    func tracesURL(endpoint: String, posted: String) throws {
        #expect(ServerTracing.tracesURL(try #require(URL(string: endpoint))) == posted)
    }

    @Test("only a connected trusted proxy's trace context is believed, however its address is written")
    func trustedPeer() throws {
        let proxies = try #require(TrustedProxies(["127.0.0.1", "2001:db8::1"]))
        #expect(proxies.trusts(peer: "127.0.0.1"))
        #expect(proxies.trusts(peer: "::ffff:127.0.0.1"))
        #expect(proxies.trusts(peer: "2001:db8:0:0::1"))
        #expect(!proxies.trusts(peer: "127.0.0.2"))
        #expect(!proxies.trusts(peer: "not an address"))
        #expect(!TrustedProxies.none.trusts(peer: "127.0.0.1"))
    }

    @Test("an outgoing request's span shows its URL without a user, password, query or fragment")
    func outgoingURL() throws {
        let url = try #require(URL(string: "https://hook:secret@mail.example:8443/hooks/mail?token=path-secret#top"))
        #expect(OutgoingRequestSpan.shown(url) == "https://mail.example:8443/hooks/mail")
    }

    @Test(
        "a storage span is named by its statement's first keyword",
        arguments: [
            ("SELECT * FROM users WHERE id = ?", "SELECT"), ("  insert into grants VALUES ($1)", "INSERT"),
            ("WITH change AS (DELETE FROM codes RETURNING *) SELECT * FROM change", "WITH"), ("", "statement"),
            ("(SELECT 1)", "statement"),
        ])
    func storageSpanName(sql: String, name: String) {
        #expect(StorageSpan.operationName(sql) == name)
    }

    @Test("without a tracer an operation runs as it is and its typed error comes through")
    func untracedOperation() async {
        #expect(!OperationSpan.isRecording)
        let error = await #expect(throws: StorageError.self) {
            try await OperationSpan.run("failing") { () throws(StorageError) -> Int in
                throw StorageError.unavailable("down")
            }
        }
        #expect(error == .unavailable("down"))
    }
}
