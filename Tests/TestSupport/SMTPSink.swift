import Foundation
import LimenTestSupport

/// A real SMTP server (Python aiosmtpd, `Tests/Peers/smtp/server.py`) on 127.0.0.1 that keeps every message, for
/// tests where Limen Server mails a one-time code (`--mail-url smtp://127.0.0.1:PORT`).
public final class SMTPSink: Sendable {
    /// The server, which keeps each message as `mail/<n>.eml`.
    private let peer: KeepingPeer

    /// Why it cannot run here, or `nil` when it can (CI sets `LIMEN_REQUIRE_PEERS=1` and installs aiosmtpd).
    public static let unavailableReason = Peers.missingPythonModules(
        "aiosmtpd, cryptography", install: "pip install aiosmtpd cryptography")

    /// Its port.
    public var port: Int { peer.port }
    /// Where it keeps the messages.
    public var directory: URL { peer.directory }
    /// The `--mail-url` that sends Limen Server's mail here.
    public var mailURL: String { "smtp://127.0.0.1:\(port)" }

    /// Starts the server and waits for its `READY <port>` line.
    public static func start() async throws -> SMTPSink {
        SMTPSink(peer: try await KeepingPeer.start(script: "smtp/server.py", keeping: "eml"))
    }

    private init(peer: KeepingPeer) {
        self.peer = peer
    }

    /// What `extract` finds in the next kept message (as received) where it finds something, after those already
    /// looked at; messages where it finds nothing (a notice mailed in between) are passed over, each waited for up to
    /// `timeout`.
    public func next<Found>(
        timeout: Duration = .seconds(30),
        _ extract: (String) -> Found?
    ) async throws -> Found {
        while true {
            if let found = extract(String(decoding: try await peer.next(timeout: timeout), as: UTF8.self)) {
                return found
            }
        }
    }

    /// The code in the next message that carries one (its subject is `Your code: CODE`).
    public func nextCode() async throws -> String {
        try await next(Self.code(in:))
    }

    /// The link in the next message whose plain-text part holds one (the line holding `#limen_interaction=`).
    public func nextLink() async throws -> URL {
        try await next(Self.link(in:))
    }

    private static func code(in message: String) -> String? {
        let subject = "Subject: Your code: "
        return message.components(separatedBy: "\r\n").first { $0.hasPrefix(subject) }.map {
            String($0.dropFirst(subject.count))
        }
    }

    private static func link(in message: String) -> URL? {
        for part in message.components(separatedBy: "\r\n\r\n").dropFirst() {
            let encoded = part.components(separatedBy: "\r\n--").first?.filter { !$0.isWhitespace } ?? ""
            guard let data = Data(base64Encoded: encoded) else { continue }
            let text = String(decoding: data, as: UTF8.self)
            if let line = text.components(separatedBy: "\n").first(where: { $0.contains("#limen_interaction=") }) {
                return URL(string: line.trimmingCharacters(in: .whitespaces))
            }
        }
        return nil
    }

    /// Stops the server and removes its messages.
    public func stop() async {
        await peer.stop()
    }

    /// Starts a sink, runs `body` with it, and stops it however `body` ends.
    public static func with<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (SMTPSink) async throws -> Result
    ) async throws -> Result {
        try await withStopping(try await start(), stop: { await $0.stop() }, body)
    }
}
