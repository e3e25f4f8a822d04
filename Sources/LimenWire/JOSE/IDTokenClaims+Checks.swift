import Foundation

extension IDTokenClaims {
    /// Checks that the token was issued by `issuer` for `clientID` (OpenID Connect Core §3.1.3.7 steps 2–5): `iss`
    /// equal to `issuer`, `clientID` among the audiences, and `azp` equal to `clientID` when present, required when
    /// there are several audiences.
    ///
    /// ```swift
    /// try claims.checkIssued(by: "https://id.example.com", to: "app")
    /// ```
    public func checkIssued(by issuer: String, to clientID: String) throws(IDTokenValidationError) {
        guard self.issuer == issuer else { throw .issuerMismatch(expected: issuer, actual: self.issuer) }
        guard audience.contains(clientID) else { throw .audienceMismatch }
        if let authorizedParty {
            guard authorizedParty == clientID else { throw .authorizedPartyMismatch }
        } else if audience.count > 1 {
            throw .authorizedPartyMismatch
        }
    }

    /// Checks that the token is in force at `time`, give or take `leeway` seconds of clock skew (OpenID Connect Core
    /// §3.1.3.7 steps 9–10): `exp` not passed, `iat` and `nbf` reached.
    ///
    /// ```swift
    /// try claims.checkInForce(at: Date(), leeway: 60)
    /// ```
    public func checkInForce(at time: Date, leeway: TimeInterval) throws(IDTokenValidationError) {
        guard time < expiresAt.addingTimeInterval(leeway) else { throw .expired }
        guard issuedAt <= time.addingTimeInterval(leeway) else { throw .issuedInFuture }
        if let notBefore {
            guard notBefore <= time.addingTimeInterval(leeway) else { throw .notYetValid }
        }
    }
}
