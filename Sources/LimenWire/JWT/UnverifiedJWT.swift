import Foundation

/// A JWT decoded **without verifying its signature or any claim: this is not a security check.**
///
/// Use it to read what a token says for display, logging decisions or scheduling a refresh (for example, an access
/// token's expiry). Never use it to decide whom a user is or what they may do; for an ID token use
/// `IDTokenValidator`.
///
/// ```swift
/// let jwt = try UnverifiedJWT(accessToken)
/// if jwt.isExpired(leeway: 30) { try await refresh() }
/// ```
public struct UnverifiedJWT: Sendable, Equatable {
    /// The protected header's members.
    public let header: [String: JSONValue]
    /// The payload's claims, standard and custom.
    public let claims: [String: JSONValue]

    /// Decodes a compact JWT; throws when it is not three base64url segments with a JSON header and payload.
    public init(_ token: String) throws(JWTDecodingError) {
        let jws = try CompactJWS(token)
        guard let claims = JSONObject.decode(jws.payload) else { throw .invalidJSON(.payload) }
        self.header = jws.header
        self.claims = claims
    }

    /// A claim by name, for claims that have no typed accessor.
    public subscript(claim name: String) -> JSONValue? { claims[name] }

    /// The `alg` header parameter, as the token states it.
    public var algorithm: String? { header["alg"]?.stringValue }
    /// The `kid` header parameter.
    public var keyID: String? { header["kid"]?.stringValue }
    /// The `typ` header parameter.
    public var type: String? { header["typ"]?.stringValue }

    /// The `iss` claim.
    public var issuer: String? { claims["iss"]?.stringValue }
    /// The `sub` claim.
    public var subject: String? { claims["sub"]?.stringValue }
    /// The `aud` claim, whether sent as one string or an array (empty when absent).
    public var audience: [String] { claims["aud"]?.stringArrayValue ?? [] }
    /// The `exp` claim.
    public var expiresAt: Date? { claims["exp"]?.dateValue }
    /// The `iat` claim.
    public var issuedAt: Date? { claims["iat"]?.dateValue }
    /// The `nbf` claim.
    public var notBefore: Date? { claims["nbf"]?.dateValue }
    /// The `jti` claim.
    public var jwtID: String? { claims["jti"]?.stringValue }

    /// Whether `exp` has passed by more than `leeway` seconds at `now`; `false` when there is no `exp`.
    ///
    /// Not a security check: the claim is unverified.
    public func isExpired(leeway: TimeInterval = 0, now: Date = Date()) -> Bool {
        guard let expiresAt else { return false }
        return now >= expiresAt.addingTimeInterval(leeway)
    }

    /// Seconds from `now` until `exp` (negative once expired), or `nil` when there is no `exp`.
    public func timeUntilExpiration(now: Date = Date()) -> TimeInterval? {
        expiresAt.map { $0.timeIntervalSince(now) }
    }
}
