/// The grants of the token endpoint, by their `grant_type` (RFC 6749 §4.1.3 and §6, RFC 8628 §3.4, RFC 8693 §2.1).
public enum GrantType: String, CaseIterable, Sendable {
    /// An authorization code redeemed with its PKCE verifier.
    case authorizationCode = "authorization_code"
    /// A refresh token, rotated on use.
    case refreshToken = "refresh_token"
    /// A device code polled for (RFC 8628).
    case deviceCode = "urn:ietf:params:oauth:grant-type:device_code"
    /// A trusted issuer's token exchanged for Limen's (RFC 8693).
    case tokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
}
