import LimenOIDC

/// What kind of token another issuer gave the app, for ``AuthClient/exchange(externalToken:type:scopes:)`` (the
/// `subject_token_type` of RFC 8693 §3).
public enum ExternalTokenType: String, Sendable, Equatable, CaseIterable {
    /// An OpenID Connect ID token (`urn:ietf:params:oauth:token-type:id_token`).
    case idToken = "urn:ietf:params:oauth:token-type:id_token"
    /// Any other JWT the provider trusts (`urn:ietf:params:oauth:token-type:jwt`).
    case jwt = "urn:ietf:params:oauth:token-type:jwt"
}
