import Foundation
import LimenTestSupport

/// glewlwyd, a third-party OpenID provider (Debian package), started on 127.0.0.1 for end-to-end tests by the
/// scripts in `Tests/Peers/glewlwyd/`.
public final class GlewlwydPeer: Sendable {
    /// A client registered at start.
    public struct Client: Decodable, Sendable {
        /// The client identifier.
        public let clientID: String
        /// The secret of the confidential client; `nil` for public clients.
        public let clientSecret: String?
        /// The ID token signing algorithm (`RS256`, `ES256`, `EdDSA`).
        public let alg: String
        /// Registered redirect URIs.
        public let redirectURIs: [URL]
    }

    /// The test user.
    public struct User: Decodable, Sendable {
        /// Login name.
        public let username: String
        /// Password.
        public let password: String
        /// Email claim.
        public let email: String
    }

    private struct Description: Decodable {
        let issuer: URL
        let baseURL: URL
        let user: User
        let clients: [Client]
    }

    /// The issuer identifier.
    public let issuer: URL
    /// The server root (`http://127.0.0.1:PORT`).
    public let baseURL: URL
    /// The test user.
    public let user: User
    /// Every registered client.
    public let clients: [Client]
    private let directory: URL

    /// Why the peer cannot run here, or `nil` when it can. Tests are skipped with this reason; `.ci/run` sets
    /// `LIMEN_REQUIRE_PEERS=1` so that a missing peer fails instead.
    public static var unavailableReason: String? {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/glewlwyd") || Peers.areRequired { return nil }
        return "glewlwyd is not installed (run Tests/Peers/glewlwyd/install.sh)"
    }

    /// The exit status of `start.sh` when its port was taken by someone else before glewlwyd could bind it.
    private static let portTakenStatus: Int32 = 75

    /// Starts a fresh instance on a free port, trying another port when the chosen one is taken meanwhile.
    public static func start() async throws -> GlewlwydPeer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limen-glewlwyd-\(UUID())")
        var attempt = 1
        while true {
            let port = try FreePort.find()
            let result = try await Subprocess.capture(
                script("start.sh"),
                arguments: ["--port", String(port), "--dir", directory.path]
            )
            if result.status == portTakenStatus, attempt < 3 {
                attempt += 1
                continue
            }
            guard result.status == 0 else {
                throw SubprocessError.failed(
                    program: "start.sh", status: result.status, standardError: result.standardError)
            }
            let description = try JSONDecoder().decode(Description.self, from: result.standardOutput)
            return GlewlwydPeer(description: description, directory: directory)
        }
    }

    private init(description: Description, directory: URL) {
        issuer = description.issuer
        baseURL = description.baseURL
        user = description.user
        clients = description.clients
        self.directory = directory
    }

    /// The client signing with `alg` (public clients first).
    public func client(alg: String, confidential: Bool = false) -> Client? {
        clients.first { $0.alg == alg && ($0.clientSecret != nil) == confidential }
    }

    /// Stops the server and removes its files.
    public func stop() async {
        _ = try? await Subprocess.run(Self.script("stop.sh"), arguments: [directory.path])
        try? FileManager.default.removeItem(at: directory)
    }

    private static func script(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Peers/glewlwyd/\(name)")
    }
}
