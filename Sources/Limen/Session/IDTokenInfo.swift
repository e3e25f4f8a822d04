import Foundation
import LimenOIDC

/// The session's ID token and its claims, as ``AuthClient/idTokenInfo()`` gives them (GrabID's `IdTokenInfo`).
///
/// The token was validated when it arrived (signature, issuer, audience, nonce, expiry); ``isValid(at:issuer:clientID:leeway:)``
/// says whether it still holds later, by time and by whom it names, without the network.
///
/// ```swift
/// if let info = await client.idTokenInfo(), client.isValidIdToken(info) {
///     print(info.claims.subject, info.claims.expiresAt)
/// }
/// ```
public struct IDTokenInfo: Sendable, Equatable {
    /// The ID token as it arrived (a compact JWT), for `id_token_hint` or a backend that checks it again.
    public let token: String
    /// Its claims, typed.
    public let claims: IDTokenClaims

    /// Reads `token`'s claims; `nil` when it is no JWT or lacks a required claim (`iss`, `sub`, `aud`, `exp`, `iat`).
    init?(token: String) {
        guard let jwt = try? UnverifiedJWT(token), let claims = try? IDTokenClaims(claims: jwt.claims) else {
            return nil
        }
        self.token = token
        self.claims = claims
    }

    /// Whether at `now` the token is in force, give or take `leeway` seconds of clock skew (`exp` not passed, `iat`
    /// and `nbf` reached), and was issued by `issuer` for `clientID`: the ID token validator's own checks of issuer,
    /// audience, `azp` and time.
    public func isValid(at now: Date, issuer: String, clientID: String, leeway: TimeInterval) -> Bool {
        do {
            try claims.checkIssued(by: issuer, to: clientID)
            try claims.checkInForce(at: now, leeway: leeway)
            return true
        } catch {
            return false
        }
    }
}
