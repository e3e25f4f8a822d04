import Foundation

/// An OpenID provider's metadata (OpenID Connect Discovery 1.0 §3, RFC 8414 §2).
///
/// Only the issuer, authorization and token endpoints are required by this type; everything else is optional so
/// that plain OAuth 2.0 servers can be described too.
public struct ProviderMetadata: Codable, Sendable, Equatable {
    /// The issuer identifier; must equal the configured issuer exactly.
    public var issuer: String
    /// Where the user agent is sent to authorize.
    public var authorizationEndpoint: URL
    /// Where codes and refresh tokens are exchanged.
    public var tokenEndpoint: URL
    /// The UserInfo endpoint.
    public var userinfoEndpoint: URL?
    /// Where the provider's signing keys are published.
    public var jwksURI: URL?
    /// The RFC 7009 revocation endpoint.
    public var revocationEndpoint: URL?
    /// The RFC 7662 introspection endpoint.
    public var introspectionEndpoint: URL?
    /// The RP-initiated logout endpoint.
    public var endSessionEndpoint: URL?
    /// The RFC 8628 device authorization endpoint.
    public var deviceAuthorizationEndpoint: URL?
    /// The dynamic client registration endpoint.
    public var registrationEndpoint: URL?
    /// Scopes the provider supports.
    public var scopesSupported: [String]?
    /// Response types the provider supports.
    public var responseTypesSupported: [String]?
    /// Grant types the provider supports.
    public var grantTypesSupported: [String]?
    /// Algorithms the provider may sign ID tokens with.
    public var idTokenSigningAlgValuesSupported: [String]?
    /// PKCE methods the provider supports.
    public var codeChallengeMethodsSupported: [String]?
    /// Client authentication methods the token endpoint accepts.
    public var tokenEndpointAuthMethodsSupported: [String]?
    /// Claims the provider may return.
    public var claimsSupported: [String]?
    /// Whether the provider puts `iss` in every authorization response (RFC 9207 §3).
    public var authorizationResponseIssParameterSupported: Bool?

    /// Creates metadata; used by tests and by apps configuring a provider without discovery.
    public init(
        issuer: String,
        authorizationEndpoint: URL,
        tokenEndpoint: URL,
        userinfoEndpoint: URL? = nil,
        jwksURI: URL? = nil,
        revocationEndpoint: URL? = nil,
        introspectionEndpoint: URL? = nil,
        endSessionEndpoint: URL? = nil,
        deviceAuthorizationEndpoint: URL? = nil,
        registrationEndpoint: URL? = nil,
        scopesSupported: [String]? = nil,
        responseTypesSupported: [String]? = nil,
        grantTypesSupported: [String]? = nil,
        idTokenSigningAlgValuesSupported: [String]? = nil,
        codeChallengeMethodsSupported: [String]? = nil,
        tokenEndpointAuthMethodsSupported: [String]? = nil,
        claimsSupported: [String]? = nil,
        authorizationResponseIssParameterSupported: Bool? = nil
    ) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.userinfoEndpoint = userinfoEndpoint
        self.jwksURI = jwksURI
        self.revocationEndpoint = revocationEndpoint
        self.introspectionEndpoint = introspectionEndpoint
        self.endSessionEndpoint = endSessionEndpoint
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.registrationEndpoint = registrationEndpoint
        self.scopesSupported = scopesSupported
        self.responseTypesSupported = responseTypesSupported
        self.grantTypesSupported = grantTypesSupported
        self.idTokenSigningAlgValuesSupported = idTokenSigningAlgValuesSupported
        self.codeChallengeMethodsSupported = codeChallengeMethodsSupported
        self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
        self.claimsSupported = claimsSupported
        self.authorizationResponseIssParameterSupported = authorizationResponseIssParameterSupported
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case jwksURI = "jwks_uri"
        case revocationEndpoint = "revocation_endpoint"
        case introspectionEndpoint = "introspection_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case deviceAuthorizationEndpoint = "device_authorization_endpoint"
        case registrationEndpoint = "registration_endpoint"
        case scopesSupported = "scopes_supported"
        case responseTypesSupported = "response_types_supported"
        case grantTypesSupported = "grant_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case claimsSupported = "claims_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
    }
}
