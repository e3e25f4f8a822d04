import Foundation
import Limen
import TestSupport
import Testing

/// limen-server mailing its codes to an SMTP sink, and clients of its seeded native client `limen-cli`: what the
/// account tests run against.
struct AccountServer {
    let server: LimenServerPeer
    let sink: SMTPSink

    /// Starts a sink and a server (with `settings` too), runs `body`, stops both however it ends.
    static func with(
        settings: [String] = [],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (AccountServer) async throws -> Void
    ) async throws {
        try await SMTPSink.with { sink in
            try await LimenServerPeer.with(
                settings: ["--sign-in-rate-limit", "100/s", "--mail-url", sink.mailURL] + settings
            ) { server in
                try await body(AccountServer(server: server, sink: sink))
            }
        }
    }

    /// A client over `store` (not signed in until `store` holds a session).
    func client(store: MemoryStore = MemoryStore()) throws -> AuthClient {
        AuthClient(
            configuration: Configuration(
                issuer: server.issuer, clientID: "limen-cli",
                redirectURI: try #require(URL(string: "http://127.0.0.1/callback")),
                scopes: ["profile", "email", "offline_access"], store: store))
    }

    /// A second client holding a copy of the session `store` holds now: another device signed in as the same user,
    /// whose tokens later changes on the first leave as they are.
    func copy(of store: MemoryStore) async throws -> AuthClient {
        let session = try #require(try await store.read("default.session"))
        let client = try client(store: MemoryStore(entries: ["default.session": session]))
        await client.restore()
        return client
    }

    /// The code in the last mail, read when the SDK asks for it.
    var mailedCode: @Sendable () async -> String? {
        { [sink] in try? await sink.nextCode() }
    }

    /// Creates an account for `email` with `password` on a fresh client, through the mailed code; returns its ID.
    func register(_ email: String, password: String) async throws -> String {
        let user = try await client().register(email: email, password: password, code: mailedCode)
        return try #require(user.id)
    }
}
