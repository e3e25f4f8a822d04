import LimenServerStorage

extension AccessTokenVerifier {
    /// Why ``authorizeForIssuer(_:issuer:)`` refused a token.
    package enum IssuerTokenRefusal: Error, Sendable, Equatable {
        /// ``authorize(_:scope:)`` refused it: no token, an invalid one, or one without `openid`.
        case challenge(BearerChallenge)
        /// A valid token minted for an API (RFC 8707 `resource`), not for the provider itself.
        case notIssuedForLimen
    }

    /// The claims of a bearer token that a user's app holds for the provider itself, as a token that acts on the
    /// person's own account must be: it grants `openid`, and its audience is `issuer` alone, so a token minted for an
    /// API, which that API holds a copy of, acts on nothing.
    package func authorizeForIssuer(
        _ token: PresentedAccessToken?,
        issuer: String
    ) async throws(StorageError) -> Result<AccessTokenClaims, IssuerTokenRefusal> {
        switch try await authorize(token, scope: "openid") {
        case .failure(let challenge): .failure(.challenge(challenge))
        case .success(let claims) where claims.audience != [issuer]: .failure(.notIssuedForLimen)
        case .success(let claims): .success(claims)
        }
    }
}
