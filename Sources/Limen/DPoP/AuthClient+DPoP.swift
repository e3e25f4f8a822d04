import Foundation
import LimenOIDC

extension AuthClient {
    /// The DPoP key, nonces and clock of this client's requests; `nil` without ``Configuration/dpop``.
    func dpopBinding() async throws(LimenError) -> DPoPBinding? {
        guard let dpopKeys else { return nil }
        return DPoPBinding(key: try await dpopKeys.key(), nonces: dpopNonces, now: configuration.now)
    }

    /// The binding that presents `tokens`' access token: `nil` for a bearer token (the provider may answer a DPoP
    /// token request with a bearer token, RFC 9449 §5, which is then used as such).
    func dpopBinding(presenting tokens: TokenSet?) async throws(LimenError) -> DPoPBinding? {
        guard tokens?.isDPoPBound == true else { return nil }
        guard let binding = try await dpopBinding() else { throw .dpop(.keyUnavailable("DPoP is not configured")) }
        return binding
    }
}

extension AuthClient {
    /// `request` carrying the session's access token `token`: as a bearer token, or, for a DPoP-bound session, under
    /// the `DPoP` scheme with a proof (a flow start carrying the session, which its interaction sends itself).
    func authorizing(_ request: HTTPRequest, with token: String) async throws(LimenError) -> HTTPRequest {
        guard let dpop = try await dpopBinding(presenting: tokens) else {
            var authorized = request
            authorized.headers["Authorization"] = "Bearer \(token)"
            return authorized
        }
        do {
            return try await dpop.proving(request, accessToken: token)
        } catch {
            throw LimenError(error)
        }
    }
}
