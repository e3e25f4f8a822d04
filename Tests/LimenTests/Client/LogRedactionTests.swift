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

        try await ProviderFixture.with(logger: capture.logger) { _ in
            .json(ProviderFixture.rotated)
        } run: { refreshing async throws in
            #expect(try await refreshing.client.refresh() == "at-new")
        }

        try await ProviderFixture.with(logger: capture.logger) { _ in
            .json(#"{"error":"invalid_grant"}"#, status: 400)
        } run: { refused async throws in
            #expect(try await refused.client.refresh() == nil)
        }

        try await ProviderFixture.with(
            expiresIn: 3600,
            routes: ["POST /revoke": { _ in .json(#"{"error":"server_error"}"#, status: 500) }],
            logger: capture.logger
        ) { _ in
            .json(ProviderFixture.rotated)
        } run: { revoking async throws in
            await revoking.client.restore()
            #expect(await revoking.client.signOut().revocationError != nil)
        }

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
        try await ProviderFixture.with(expiresIn: 3600) { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
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
        }
    }
}
