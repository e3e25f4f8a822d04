import Foundation
import Limen
import LimenTestSupport
import LimenUIModel
import TestSupport

/// Clients of a running Limen Server and an upstream provider for its identity-provider buttons.
enum FlowFixture {
    /// The keys of the built-in `sign-in` flow's first step, in order.
    static let signInKeys = [
        "email", "password", "submit", "forgot-password", "create-account", "email-code", "phone-code", "passkey",
    ]

    /// `AuthClient` for the seeded first-party native client `limen-cli` and its registered loopback redirect.
    static func client(_ server: LimenServerPeer, transport: (any HTTPTransport)? = nil) throws -> AuthClient {
        guard let redirect = URL(string: "http://127.0.0.1/callback") else { throw FixtureError.badURL }
        return AuthClient(
            configuration: Configuration(
                issuer: server.issuer, clientID: "limen-cli", redirectURI: redirect,
                scopes: ["profile", "email", "offline_access"], store: MemoryStore(), transport: transport))
    }

    /// A software authenticator answering passkey ceremonies for `server`'s origin.
    static func passkeys(_ server: LimenServerPeer) throws -> SoftwarePasskeys {
        let issuer = server.issuer
        guard let scheme = issuer.scheme, let host = issuer.host(), let port = issuer.port else {
            throw FixtureError.badURL
        }
        return SoftwarePasskeys(SoftwareAuthenticator(origin: "\(scheme)://\(host):\(port)"))
    }

    /// The user `form` signed in, when its flow finished.
    @MainActor
    static func user(of form: FlowFormModel) -> AuthState.User? {
        guard case .finished(let user) = form.phase else { return nil }
        return user
    }

    /// Why a fixture could not be made.
    enum FixtureError: Error {
        /// A literal URL did not parse.
        case badURL
    }
}

extension TestHTTPServer {
    /// Runs `body` with the issuer of an upstream OpenID provider that serves only its discovery document: enough for
    /// Limen Server to answer an identity provider's button with the provider's authorization endpoint.
    static func withUpstreamProvider(
        isolation: isolated (any Actor)? = #isolation,
        _ body: (URL) async throws -> Void
    ) async throws {
        let issuer = IssuerBox()
        let routes: [String: Handler] = [
            "GET /.well-known/openid-configuration": { _ in
                let base = await issuer.value
                return .json(
                    """
                    {"issuer":"\(base)","authorization_endpoint":"\(base)/authorize","token_endpoint":"\(base)/token",
                     "jwks_uri":"\(base)/jwks","response_types_supported":["code"],"subject_types_supported":["public"],
                     "id_token_signing_alg_values_supported":["ES256"]}
                    """)
            }
        ]
        try await withServer(routes) { server in
            await issuer.set(server.baseURL.absoluteString)
            try await body(server.baseURL)
        }
    }
}
