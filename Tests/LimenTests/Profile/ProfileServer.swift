import Foundation
import Limen
import TestSupport
import Testing

/// limen-server with the app schema of the profile tests, and clients signed in to it through its `sign-in` flow.
enum ProfileServer {
    /// Two plain fields with validation, two encrypted ones (so `encryption.enabled` is true).
    static let configuration = """
        profile_schema:
          fields:
            nickname: {type: string, display_name: Nickname, validation: {max: 20}}
            age: {type: number, validation: {min: 0, max: 150}}
            diagnosis: {type: string, encrypted: true}
            allergies: {type: array, encrypted: true}
        """

    /// Starts limen-server with ``configuration`` in a configuration file, runs `body`, stops it however it ends.
    static func with(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (LimenServerPeer) async throws -> Void
    ) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("limen-profile-\(UUID()).yaml")
        try Data(configuration.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await LimenServerPeer.with(settings: ["--config", file.path, "--sign-in-rate-limit", "100/s"], body)
    }

    /// A client of the seeded `limen-cli` client over `store` and `transport` (not signed in).
    static func client(
        _ server: LimenServerPeer,
        store: any SecureStore = MemoryStore(),
        transport: (any HTTPTransport)? = nil
    ) throws -> AuthClient {
        AuthClient(
            configuration: Configuration(
                issuer: server.issuer, clientID: "limen-cli",
                redirectURI: try #require(URL(string: "http://127.0.0.1/callback")),
                scopes: ["profile", "email", "offline_access"], store: store, transport: transport))
    }

    /// A client signed in as the server's user.
    static func signedIn(
        _ server: LimenServerPeer,
        store: any SecureStore = MemoryStore(),
        transport: (any HTTPTransport)? = nil
    ) async throws -> AuthClient {
        let client = try client(server, store: store, transport: transport)
        try await client.signIn(email: server.user.email, password: server.user.password)
        return client
    }
}
