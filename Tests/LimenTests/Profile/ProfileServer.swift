import Foundation
import Limen
import TestSupport
import Testing

/// limen-server with the app schema of the profile tests, and clients signed in to it through its `sign-in` flow.
enum ProfileServer {
    /// Starts limen-server with `LimenServerPeer.profileConfiguration`, runs `body`, stops it however it ends.
    static func with(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (LimenServerPeer) async throws -> Void
    ) async throws {
        try await LimenServerPeer.with(
            configuration: LimenServerPeer.profileConfiguration, settings: ["--sign-in-rate-limit", "100/s"], body)
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
