import Foundation
import LimenTestSupport
import LimenWire
import Testing

/// An OTLP/HTTP trace receiver (Python, `Tests/Peers/otel/receiver.py`) on 127.0.0.1, decoding what `limen-server`
/// exports with the OpenTelemetry project's own protobuf definitions (`opentelemetry-proto`).
struct OTLPReceiverPeer {
    /// Why the peer cannot run here; `nil` when it can.
    static let unavailableReason = Peers.missingPythonModules(
        "opentelemetry.proto", install: "pip install opentelemetry-proto")

    /// One span as the receiver decoded it.
    struct ExportedSpan: Decodable, Sendable {
        /// The resource's `service.name`.
        let service: String?
        /// The span's name; its kind (`SPAN_KIND_SERVER`, `SPAN_KIND_CLIENT`, …); its status (`unset`, `ok`, `error`).
        let name, kind, status: String
        /// The trace id, the span id and the parent's span id (empty for a root span), in hex.
        let traceID, spanID, parentSpanID: String
        /// The attributes.
        let attributes: [String: JSONValue]

        enum CodingKeys: String, CodingKey {
            case service, name, kind, status, attributes
            case traceID = "trace_id"
            case spanID = "span_id"
            case parentSpanID = "parent_span_id"
        }
    }

    let process: RunningProcess
    let port: Int

    /// The URL to give `otel_endpoint` (`/v1/traces` is added by the server).
    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Runs `body` with a receiver, stopped however `body` ends.
    static func with(_ body: (OTLPReceiverPeer) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await Subprocess.withService(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", PythonPeer.script("Tests/Peers/otel/receiver.py").path, directory.path],
            readyWhen: "READY", on: .standardOutput
        ) { process, line in
            let port = try #require(Int(line.split(separator: " ").last ?? ""))
            try await body(OTLPReceiverPeer(process: process, port: port))
        }
    }

    /// The spans received until `enough` accepts them all, read as they arrive; fails after `timeout` (a guard
    /// against a hung run only: the server exports within its schedule delay).
    func spans(
        timeout: Duration = .seconds(60), until enough: ([ExportedSpan]) -> Bool
    ) async throws -> [ExportedSpan] {
        let deadline = ContinuousClock.now + timeout
        var spans: [ExportedSpan] = []
        while !enough(spans) {
            let line = try await process.firstLine(
                on: .standardOutput, timeout: ContinuousClock.now.duration(to: deadline)
            ) { $0.hasPrefix("SPAN ") }
            spans.append(try JSONDecoder().decode(ExportedSpan.self, from: Data(line.dropFirst(5).utf8)))
        }
        return spans
    }
}
