import Foundation
import LimenTestSupport
import LimenWire

/// A real HTTPS webhook receiver (`Tests/Peers/webhook/receiver.py`) on 127.0.0.1 that checks each POST's
/// `Limen-Signature` on its own and keeps the bodies, for tests where Limen Server sends a code by SMS
/// (``settings`` and ``configuration`` give the server its URL, CA and secret).
public final class SMSSink: Sendable {
    /// The secret the receiver checks signatures with.
    public static let secret = "an SMS webhook secret of more than 32 characters"
    /// Why it cannot run here, or `nil` when it can.
    public static let unavailableReason = Peers.missingPythonModules(
        "cryptography", install: "pip install cryptography")

    /// The receiver, which keeps each body as `mail/<n>.json`.
    private let peer: KeepingPeer

    /// The `limen-server serve` flags that send codes by SMS here, trusting the receiver's CA.
    public var settings: [String] {
        [
            "--sms-url", "https://localhost:\(peer.port)/sms", "--mail-ca-file",
            peer.directory.appendingPathComponent("ca.pem").path,
        ]
    }

    /// The configuration file (YAML) holding the signing secret, which no flag may carry.
    public var configuration: String { "sms_webhook_secret: \"\(Self.secret)\"\n" }

    /// Starts the receiver and waits for its `READY <port>` line.
    public static func start() async throws -> SMSSink {
        SMSSink(
            peer: try await KeepingPeer.start(
                script: "webhook/receiver.py", environment: ["LIMEN_TEST_WEBHOOK_SECRET": secret], keeping: "json"))
    }

    private init(peer: KeepingPeer) {
        self.peer = peer
    }

    /// The next SMS the receiver accepted (`{to, body, code, purpose}`), waiting up to `timeout` for it.
    public func nextMessage(timeout: Duration = .seconds(30)) async throws -> [String: JSONValue] {
        try JSONValue(parsing: try await peer.next(timeout: timeout)).objectValue ?? [:]
    }

    /// Stops the receiver and removes what it kept.
    public func stop() async {
        await peer.stop()
    }

    /// Starts a receiver, runs `body` with it, and stops it however `body` ends.
    public static func with<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (SMSSink) async throws -> Result
    ) async throws -> Result {
        try await withStopping(try await start(), stop: { await $0.stop() }, body)
    }
}
