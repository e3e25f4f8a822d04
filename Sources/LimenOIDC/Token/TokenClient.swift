import Foundation
import LimenWire

/// Talks to a provider's token endpoint and its neighbours (device authorization, revocation) for one client.
///
/// Stateless: each call sends one request (or, for device polling, a bounded series) and returns a value or a typed
/// ``OIDCError``. Secrets pass through unlogged. With a ``DPoPBinding`` every token request carries a fresh DPoP proof
/// (RFC 9449 §5), answering one `use_dpop_nonce` with one retry.
///
/// ```swift
/// let tokens = TokenClient(metadata: metadata, authentication: .none(clientID: "app"), transport: transport)
/// let response = try await tokens.exchangeCode(code, redirectURI: callback, codeVerifier: pkce.verifier)
/// ```
public struct TokenClient: Sendable {
    /// The provider's endpoints.
    public let metadata: ProviderMetadata
    /// How this client authenticates.
    public let authentication: ClientAuthentication
    /// The DPoP key, nonces and clock of token requests; `nil` for bearer tokens.
    public let dpop: DPoPBinding?
    let transport: any HTTPTransport

    /// Creates a client; with `dpop`, every token request carries a DPoP proof.
    public init(
        metadata: ProviderMetadata,
        authentication: ClientAuthentication,
        transport: any HTTPTransport,
        dpop: DPoPBinding? = nil
    ) {
        self.metadata = metadata
        self.authentication = authentication
        self.transport = transport
        self.dpop = dpop
    }

    /// Exchanges an authorization code with its PKCE verifier (RFC 6749 §4.1.3, RFC 7636 §4.5).
    public func exchangeCode(_ code: String, redirectURI: URL, codeVerifier: String) async throws(OIDCError)
        -> TokenResponse
    {
        try await requestToken([
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", redirectURI.absoluteString),
            ("code_verifier", codeVerifier),
        ])
    }

    /// Uses a refresh token (RFC 6749 §6). The answer may carry a rotated refresh token; keep it.
    /// - Parameters:
    ///   - refreshToken: The refresh token to spend.
    ///   - scopes: A narrower scope to ask for; `nil` keeps the original grant's scope.
    public func refresh(_ refreshToken: String, scopes: [String]? = nil) async throws(OIDCError) -> TokenResponse {
        var fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
        if let scopes { fields.append(("scope", scopes.joined(separator: " "))) }
        return try await requestToken(fields)
    }

    /// Exchanges one token for another (RFC 8693).
    public func exchange(_ request: TokenExchangeRequest) async throws(OIDCError) -> TokenResponse {
        try await requestToken(request.fields)
    }

    /// Posts a grant to the token endpoint and checks the answer's shape.
    func requestToken(_ fields: [(String, String)]) async throws(OIDCError) -> TokenResponse {
        let request = authentication.formRequest(url: metadata.tokenEndpoint, fields: fields)
        let answer = try await EndpointResponse.send(
            request, accessToken: nil, dpop: dpop, through: transport, endpoint: "token")
        let response = try EndpointResponse.decode(TokenResponse.self, from: answer.body, endpoint: "token")
        guard !response.accessToken.isEmpty else {
            throw .invalidResponse(endpoint: "token", reason: "empty access_token")
        }
        return response
    }
}
