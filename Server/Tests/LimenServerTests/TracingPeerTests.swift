import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// `otel_endpoint` on a real `limen-server`: its spans, exported over OTLP/HTTP, decoded by the OpenTelemetry project's
/// own protobuf definitions.
@Suite(
    "OpenTelemetry traces: a span per request, with its storage and password hashing spans, sent to otel_endpoint",
    .enabled(if: OTLPReceiverPeer.unavailableReason == nil, "python3 cannot import opentelemetry.proto"))
struct TracingPeerTests {
    typealias ExportedSpan = OTLPReceiverPeer.ExportedSpan

    /// The caller's trace (W3C Trace Context §3.2 example ids).
    static let callerTraceID = "4bf92f3577b34da6a3ce929d0e0e4736"
    static let callerSpanID = "00f067aa0ba902b7"
    static let traceparent = "00-\(callerTraceID)-\(callerSpanID)-01"
    static let submissionRoute = "/flows/interactions/{id}"
    static let traceparentField = HTTPField.Name("traceparent")!

    @Test("a password sign-in's request span holds storage and password hashing spans, in a trusted proxy's trace")
    func signInFromTrustedProxy() async throws {
        let spans = try await Self.signIn(trustingLoopback: true)
        let request = try #require(spans.first { $0.attributes["http.route"] == .string(Self.submissionRoute) })
        #expect(request.name == "POST \(Self.submissionRoute)")
        #expect(request.kind == "SPAN_KIND_SERVER")
        #expect(request.service == "limen-server")
        #expect(request.attributes["http.request.method"] == .string("POST"))
        #expect(request.attributes["http.response.status_code"] == .number(200))
        #expect(request.attributes["limen.request_id"] == .string("trace-test-submission"))
        #expect(request.traceID == Self.callerTraceID, "the trusted proxy's trace id is kept")
        #expect(request.parentSpanID == Self.callerSpanID)

        let children = spans.filter { $0.parentSpanID == request.spanID }
        #expect(children.allSatisfy { $0.traceID == request.traceID })
        let hashing = try #require(children.first { $0.name == PasswordHasher.spanName })
        #expect(hashing.attributes["limen.password_hash.log_n"] == .number(10))
        let storage = try #require(children.first { $0.attributes["db.system.name"] == .string("sqlite") })
        #expect(storage.kind == "SPAN_KIND_CLIENT")
        #expect(storage.attributes["db.query.text"]?.stringValue?.isEmpty == false)
        #expect(
            !spans.contains { span in
                span.attributes.values.contains { $0.stringValue?.contains(SignInFixture.password) == true }
            }, "no span holds the password")
    }

    @Test("a traceparent from an address that is not a trusted proxy is ignored: the request starts a new trace")
    func traceparentFromUntrustedAddress() async throws {
        let spans = try await Self.signIn(trustingLoopback: false)
        let request = try #require(spans.first { $0.attributes["http.route"] == .string(Self.submissionRoute) })
        #expect(request.traceID != Self.callerTraceID)
        #expect(request.traceID.count == 32 && request.traceID != String(repeating: "0", count: 32))
        #expect(request.parentSpanID.isEmpty, "a root span")
        #expect(spans.allSatisfy { $0.traceID != Self.callerTraceID })
        #expect(spans.contains { $0.parentSpanID == request.spanID && $0.name == PasswordHasher.spanName })
    }

    @Test("an event webhook's delivery is a client span with the receiver's address, its URL without the query")
    func outgoingWebhook() async throws {
        let spans = try await Self.signIn(trustingLoopback: false, webhookPath: Self.webhookPath)
        let post = try #require(spans.first { $0.name == "POST" && $0.kind == "SPAN_KIND_CLIENT" })
        let url = try #require(post.attributes["url.full"]?.stringValue)
        #expect(url.hasPrefix("http://127.0.0.1:") && url.hasSuffix("/hook"), "\(url)")
        #expect(post.attributes["http.request.method"] == .string("POST"))
        #expect(post.attributes["server.address"] == .string("127.0.0.1"))
        // The receiver knows only /v1/traces: the webhook's answer is a 404, and the span is failed.
        #expect(post.attributes["http.response.status_code"] == .number(404))
        #expect(post.status == "error")
        #expect(post.parentSpanID.isEmpty, "a background delivery starts a trace of its own")
        #expect(!spans.contains { $0.attributes.values.contains { $0.stringValue?.contains("secret-query") == true } })
    }

    /// Where ``outgoingWebhook()``'s webhook posts, on the receiver, with a query no span may show.
    static let webhookPath = "/hook?token=secret-query"

    /// Signs Ada in with her password through the native flow of a `limen-server` tracing to a receiver, both requests
    /// carrying ``traceparent``, with 127.0.0.1 a trusted proxy or not; the spans exported until the submission's and
    /// its password hashing span arrived, and with a `webhookPath` an event webhook's POST to it on the receiver.
    static func signIn(trustingLoopback: Bool, webhookPath: String? = nil) async throws -> [ExportedSpan] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory)
        configuration.webhooks.allowsHTTPLoopback = true
        let provider = try await ServerComposition.bootstrap(configuration: configuration, now: Date.init)
        _ = try await provider.accounts.signUp(
            email: SignInFixture.email, password: SignInFixture.password, name: "Ada", origin: .commandLine)

        var spans: [ExportedSpan] = []
        try await OTLPReceiverPeer.with { receiver in
            if let webhookPath {
                _ = try await provider.webhooks.create(
                    url: receiver.endpoint + webhookPath, events: ["user.signed_in"], description: nil,
                    origin: .commandLine)
            }
            await provider.store.close()
            let port = try FreePort.find()
            let arguments =
                ["--port", String(port), "--data-dir", directory.path, "--otel-endpoint", receiver.endpoint]
                + (trustingLoopback ? ["--trusted-proxy", "127.0.0.1"] : [])
                + (webhookPath == nil ? [] : ["--allow-http-webhooks"])
            // Spans leave every 100 ms instead of every second.
            try await withServerProcess(arguments, environment: ["OTEL_BSP_SCHEDULE_DELAY": "100"]) { _ in
                let started = try await livePage(
                    port: port, "/flows/sign-in", method: .post,
                    headers: [traceparentField: traceparent, .contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(
                        string: FormEncoding.encode([
                            ("client_id", "limen-cli"), ("redirect_uri", SignInFixture.cliRedirect),
                            ("scope", "openid"), ("state", "s-1"), ("code_challenge", SignInFixture.challenge),
                            ("code_challenge_method", "S256"),
                        ])))
                let interaction = try #require(started.json["interaction"]?.stringValue, "\(started.body)")
                let node = try #require(started.json["node"]?.objectValue?["id"]?.stringValue)
                let submission = JSONValue.object([
                    "node": .string(node), "action": .string("submit"),
                    "values": .object([
                        "email": .string(SignInFixture.email), "password": .string(SignInFixture.password),
                    ]),
                ])
                let answer = try await livePage(
                    port: port, "/flows/interactions/\(interaction)", method: .post,
                    headers: [
                        traceparentField: traceparent, .contentType: "application/json",
                        HTTPField.Name("X-Request-Id")!: "trace-test-submission",
                    ],
                    body: ByteBuffer(bytes: submission.serialized()))
                #expect(answer.json["node"]?.objectValue?["type"] == .string("success"), "\(answer.body)")
                spans = try await receiver.spans { spans in
                    guard
                        let request = spans.first(where: {
                            $0.attributes["http.route"] == .string(submissionRoute)
                        })
                    else { return false }
                    let children = spans.filter { $0.parentSpanID == request.spanID }
                    return children.contains { $0.name == PasswordHasher.spanName }
                        && children.contains { $0.attributes["db.system.name"] != nil }
                        && (webhookPath == nil || spans.contains { $0.name == "POST" })
                }
            }
        }
        return spans
    }
}
