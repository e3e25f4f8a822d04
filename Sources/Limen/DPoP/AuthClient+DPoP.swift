import Foundation
import LimenOIDC

extension AuthClient {
    /// The DPoP key, nonces and clock of this client's requests; `nil` without ``Configuration/dpop``. The key is the
    /// stored one of the session held (its refresh token, or its access token without one, tells it from the next), so
    /// that a session another process signed in with, and this one reloaded, is presented with its own key.
    func dpopBinding() async throws(LimenError) -> DPoPBinding? {
        guard let dpopKeys else { return nil }
        let session = tokens.map { $0.refreshToken ?? $0.accessToken }
        return DPoPBinding(key: try await dpopKeys.key(session: session), nonces: dpopNonces, now: configuration.now)
    }

    /// The binding that presents `tokens`' access token: `nil` for a bearer token (the provider may answer a DPoP
    /// token request with a bearer token, RFC 9449 §5, which is then used as such).
    func dpopBinding(presenting tokens: TokenSet?) async throws(LimenError) -> DPoPBinding? {
        guard tokens?.isDPoPBound == true else { return nil }
        guard let binding = try await dpopBinding() else { throw .dpop(.keyUnavailable("DPoP is not configured")) }
        return binding
    }
}
