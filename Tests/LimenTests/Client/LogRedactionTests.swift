import Foundation
import Limen
import LimenOIDC
import Logging
import TestSupport
import Testing

@Suite("Log redaction")
struct LogRedactionTests {
    /// Every secret the scenarios below put on the wire or in storage.
    private static let secrets = ["at-old", "rt-old", "at-new", "rt-new", "at-stored", "rt-stored"]

    @Test("refresh, invalid_grant, failed revocation and a tampered restore log no token")
    func noTokensInLogs() async throws {
        let capture = CapturedLogs()

        let refreshing = try await ProviderFixture.start(logger: capture.logger) { _ in .json(ProviderFixture.rotated) }
        #expect(try await refreshing.client.refresh() == "at-new")
        await refreshing.stop()

        let refused = try await ProviderFixture.start(logger: capture.logger) { _ in
            .json(#"{"error":"invalid_grant"}"#, status: 400)
        }
        #expect(try await refused.client.refresh() == nil)
        await refused.stop()

        let revoking = try await ProviderFixture.start(
            expiresIn: 3600,
            routes: ["POST /revoke": { _ in .json(#"{"error":"server_error"}"#, status: 500) }],
            logger: capture.logger
        ) { _ in .json(ProviderFixture.rotated) }
        await revoking.client.restore()
        #expect(await revoking.client.signOut().revocationError != nil)
        await revoking.stop()

        try await withTemporaryDirectory { directory in
            let client = AuthClient(
                configuration: Configuration(
                    issuer: URL(string: "http://127.0.0.1:1")!, clientID: "app",
                    store: try await tamperedEncryptedStore(in: directory), transport: RecordingTransport(),
                    logger: capture.logger))
            #expect(await client.restore() != nil)
        }

        let lines = capture.lines
        #expect(lines.count >= 3)  // the scenarios did log: session expired, revocation failed, unreadable store
        for line in lines {
            for secret in Self.secrets {
                #expect(!line.contains(secret), "log line leaks \(secret): \(line)")
            }
        }
    }

    @Test("descriptions of a token set and of the state never contain a token")
    func descriptions() async throws {
        let fixture = try await ProviderFixture.start(expiresIn: 3600) { _ in .json(ProviderFixture.rotated) }
        await fixture.client.restore()
        let tokens = try #require(await fixture.client.currentTokens())
        let state = fixture.client.state
        let descriptions = [
            String(describing: tokens), String(reflecting: tokens),
            String(describing: state.auth), String(reflecting: state.auth),
            String(describing: state), "\(state)",
        ]
        for description in descriptions {
            for secret in Self.secrets {
                #expect(!description.contains(secret), "description leaks \(secret): \(description)")
            }
        }
        await fixture.stop()
    }
}

/// A swift-log handler that keeps every message with its metadata, at trace level, for one logger only.
private final class CapturedLogs: Sendable {
    private let captured = Locked<[String]>([])

    /// A logger writing here (not bootstrapped globally).
    var logger: Logger {
        var logger = Logger(label: "limen.test") { [captured] label in CapturingHandler(label: label, sink: captured) }
        logger.logLevel = .trace
        return logger
    }

    /// Each captured entry: label, level, message and metadata, as one line.
    var lines: [String] { captured.withLock { $0 } }
}

private struct CapturingHandler: LogHandler {
    let label: String
    let sink: Locked<[String]>
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let line = "\(label) \(event.level) \(event.message) \(merged) \(event.error.map { "\($0)" } ?? "")"
        sink.withLock { $0.append(line) }
    }
}
