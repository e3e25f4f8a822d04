import Foundation
import LimenTestSupport

/// Limen Server as a real process: the `limen-server` binary on 127.0.0.1 port 0 with its own data folder, a user
/// created through `limen-server users add`, stopped with SIGTERM.
///
/// The binary is `Server/.build/debug/limen-server` (the README's test command builds the server package first), or
/// the path in `LIMEN_SERVER_BINARY`.
public final class LimenServerPeer: Sendable {
    /// The test user.
    public struct User: Sendable {
        /// The sign-in email.
        public let email: String
        /// The password.
        public let password: String
    }

    /// The issuer the server announced (with the port it bound).
    public let issuer: URL
    /// The user that can sign in.
    public let user: User
    /// The data folder (SQLite file and master key).
    public let dataDirectory: URL
    private let running: RunningProcess

    /// The binary the tests run.
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["LIMEN_SERVER_BINARY"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Server/.build/debug/limen-server")
    }

    /// Why the server cannot run here, or `nil` when it can. Tests are skipped with this reason; `.ci/run` sets
    /// `LIMEN_REQUIRE_PEERS=1` so that a missing binary fails instead.
    public static var unavailableReason: String? {
        if FileManager.default.isExecutableFile(atPath: binary.path) || Peers.areRequired { return nil }
        return "limen-server is not built (swift build --package-path Server)"
    }

    /// Creates a data folder with one user and the `clients` (each the arguments of one `limen-server clients add`,
    /// such as `["--id", "app", "--native", "--redirect-uri", "http://127.0.0.1/callback"]`), starts the server on
    /// `port` (by default a free one the system picks; with `settings`, flags of `limen-server serve`) and waits for its
    /// issuer line.
    public static func start(
        email: String = "ada@example.com",
        password: String = "correct horse battery",
        port: Int = 0,
        settings: [String] = [],
        clients: [[String]] = []
    ) async throws -> LimenServerPeer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limen-server-\(UUID())")
        let data = ["--data-dir", directory.path]
        _ = try await Subprocess.run(
            binary, arguments: ["users", "add", "--email", email] + data, input: Data("\(password)\n".utf8))
        for client in clients {
            _ = try await Subprocess.run(binary, arguments: ["clients", "add"] + client + data)
        }
        let issuerLine: String
        let running: RunningProcess
        do {
            (running, issuerLine) = try await Subprocess.startService(
                binary, arguments: ["serve", "--port", String(port), "--log-level", "warning"] + data + settings,
                readyWhen: "issuer:", on: .standardOutput)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        let issuerText = issuerLine.components(separatedBy: "issuer:").last ?? ""
        guard let issuer = URL(string: issuerText.trimmingCharacters(in: .whitespaces)) else {
            await running.stop()
            try? FileManager.default.removeItem(at: directory)
            throw SubprocessError.failed(program: "limen-server", status: 0, standardError: "bad issuer: \(issuerLine)")
        }
        return LimenServerPeer(
            issuer: issuer, user: User(email: email, password: password), dataDirectory: directory, running: running)
    }

    private init(issuer: URL, user: User, dataDirectory: URL, running: RunningProcess) {
        self.issuer = issuer
        self.user = user
        self.dataDirectory = dataDirectory
        self.running = running
    }

    /// What the server has logged so far (standard error, then standard output).
    public var log: String {
        running.standardError + String(decoding: running.standardOutput, as: UTF8.self)
    }

    /// Stops the server gracefully and removes its data; returns its exit status.
    @discardableResult
    public func stop() async -> Int32 {
        let status = await running.stop().status
        try? FileManager.default.removeItem(at: dataDirectory)
        return status
    }
}
