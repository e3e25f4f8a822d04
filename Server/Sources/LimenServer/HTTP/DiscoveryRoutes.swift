import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire

/// `/.well-known/openid-configuration`, its RFC 8414 alias, `/jwks` and `/healthz`.
enum DiscoveryRoutes {
    /// Adds the four routes: the metadata of `issuer` (naming the token exchange grant when `exchangesTokens`), the
    /// public keys of `keys`, and the health of `store`.
    static func add(
        to router: Router<some RequestContext>,
        issuer: IssuerBox,
        exchangesTokens: Bool,
        keys: KeyRingBox,
        store: any StoreLifecycle,
        now: @escaping @Sendable () -> Date
    ) {
        let metadata = { @Sendable in discoveryResponse(issuer: issuer.current, exchangesTokens: exchangesTokens) }
        router.get("/.well-known/openid-configuration") { _, _ in metadata() }
        router.get("/.well-known/oauth-authorization-server") { _, _ in metadata() }
        router.get("/jwks") { _, _ in
            var response = Responses.json(.object(keys.current.jwks(at: now())))
            response.headers[.cacheControl] = "public, max-age=300"
            return response
        }
        router.get("/healthz") { _, _ in
            do {
                try await store.ping()
                return Responses.json(.object(["status": .string("ok")]), noStore: true)
            } catch {
                return Responses.json(
                    .object(["status": .string("unavailable")]), status: .serviceUnavailable, noStore: true)
            }
        }
    }

    private static func discoveryResponse(issuer: String, exchangesTokens: Bool) -> Response {
        var response = Responses.json(document(issuer: issuer, exchangesTokens: exchangesTokens))
        response.headers[.cacheControl] = "public, max-age=300"
        return response
    }

    /// The provider metadata (OpenID Connect Discovery 1.0 §3, RFC 8414 §2) for `issuer`; the token exchange grant
    /// is listed when `exchangesTokens` (some issuer is trusted).
    static func document(issuer: String, exchangesTokens: Bool = false) -> JSONValue {
        var metadata = metadata(issuer: issuer)
        if exchangesTokens { metadata.grantTypesSupported?.append(GrantType.tokenExchange.rawValue) }
        var object: [String: JSONValue] = [:]
        if let data = try? JSONEncoder().encode(metadata),
            let decoded = try? JSONDecoder().decode([String: JSONValue].self, from: data)
        {
            object = decoded
        }
        // Required by OpenID Connect Discovery §3, not modelled by the SDK's metadata type.
        object["subject_types_supported"] = .array([.string("public")])
        // RFC 8414 §2: how /revoke and /introspect authenticate clients.
        object["revocation_endpoint_auth_methods_supported"] = .array(
            ["none", "client_secret_basic", "client_secret_post"].map(JSONValue.string))
        object["introspection_endpoint_auth_methods_supported"] = .array(
            ["client_secret_basic", "client_secret_post"].map(JSONValue.string))
        // RFC 9449 §5.1: the algorithms DPoP proofs may be signed with.
        object["dpop_signing_alg_values_supported"] = .array(DPoPProofChecker.algorithmNames.map(JSONValue.string))
        // OpenID Connect Discovery §3: the `acr` values a request may ask for (``AuthenticationLevel``).
        object["acr_values_supported"] = .array(AuthenticationLevel.supportedValues.map(JSONValue.string))
        return .object(object)
    }

    /// The metadata, as the SDK models it: only endpoints this server serves or is about to.
    static func metadata(issuer: String) -> ProviderMetadata {
        func endpoint(_ path: String) -> URL {
            URL(string: issuer + path) ?? URL(fileURLWithPath: path)
        }
        return ProviderMetadata(
            issuer: issuer,
            authorizationEndpoint: endpoint("/authorize"),
            tokenEndpoint: endpoint("/token"),
            userinfoEndpoint: endpoint("/userinfo"),
            jwksURI: endpoint("/jwks"),
            revocationEndpoint: endpoint("/revoke"),
            introspectionEndpoint: endpoint("/introspect"),
            endSessionEndpoint: endpoint("/end_session"),
            deviceAuthorizationEndpoint: endpoint("/device_authorization"),
            scopesSupported: AuthorizationValidator.supportedScopes,
            responseTypesSupported: ["code"],
            grantTypesSupported: [GrantType.authorizationCode, .refreshToken, .deviceCode].map(\.rawValue),
            idTokenSigningAlgValuesSupported: SigningAlgorithm.allCases.map(\.rawValue),
            codeChallengeMethodsSupported: ["S256"],
            tokenEndpointAuthMethodsSupported: ["none", "client_secret_basic", "client_secret_post"],
            claimsSupported: [
                "iss", "sub", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "acr", "amr", "email",
                "email_verified", "name", "phone_number", "phone_number_verified",
            ],
            authorizationResponseIssParameterSupported: true
        )
    }
}
