import Foundation
import LimenWire

extension TokenClient {
    /// What kind of token is being revoked (RFC 7009 §2.1 `token_type_hint`).
    public enum TokenTypeHint: String, Sendable {
        /// An access token.
        case accessToken = "access_token"
        /// A refresh token (revoking it normally revokes the whole grant).
        case refreshToken = "refresh_token"
    }

    /// Revokes a token (RFC 7009 §2). An unknown or already revoked token also succeeds (§2.2).
    /// - Throws: ``OIDCError/unsupported(_:)`` when the provider has no revocation endpoint; the server's
    ///   refusal otherwise (for example `invalid_client` when it only accepts confidential clients).
    public func revoke(_ token: String, hint: TokenTypeHint) async throws(OIDCError) {
        guard let endpoint = metadata.revocationEndpoint else { throw .unsupported("token revocation") }
        let request = authentication.formRequest(
            url: endpoint,
            fields: [("token", token), ("token_type_hint", hint.rawValue)]
        )
        _ = try await EndpointResponse.send(request, through: transport, endpoint: "revocation")
    }
}
