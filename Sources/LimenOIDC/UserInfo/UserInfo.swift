import Foundation
import LimenWire

/// Claims about the signed-in user from the UserInfo endpoint (OpenID Connect Core §5.3).
public struct UserInfo: Sendable, Equatable {
    /// The subject; always equal to the ID token's `sub`.
    public let subject: String
    /// Every claim the endpoint returned, `sub` included.
    public let claims: [String: JSONValue]

    /// A claim by name.
    public subscript(claim: String) -> JSONValue? { claims[claim] }

    /// The `email` claim, if returned.
    public var email: String? { claims["email"]?.stringValue }
    /// The `email_verified` claim, if returned.
    public var emailVerified: Bool? { claims["email_verified"]?.boolValue }
    /// The `name` claim, if returned.
    public var name: String? { claims["name"]?.stringValue }

    /// Fetches the signed-in user's claims with an access token (a bearer token, or a DPoP-bound one with `dpop`).
    /// - Parameters:
    ///   - endpoint: The provider's `userinfo_endpoint`.
    ///   - accessToken: The access token to present.
    ///   - expectedSubject: The validated ID token's `sub`; a different `sub` is refused.
    ///   - transport: How to reach the provider.
    ///   - dpop: For a DPoP-bound access token, the binding that proves the request (RFC 9449 §7); `nil` for a bearer
    ///     token.
    public static func fetch(
        from endpoint: URL,
        accessToken: String,
        expectedSubject: String,
        transport: any HTTPTransport,
        dpop: DPoPBinding? = nil
    ) async throws(OIDCError) -> UserInfo {
        let request = HTTPRequest(url: endpoint, headers: ["Accept": "application/json"])
        let response = try await EndpointResponse.send(
            request, accessToken: accessToken, dpop: dpop, through: transport, endpoint: "userinfo")
        let claims = try EndpointResponse.decode([String: JSONValue].self, from: response.body, endpoint: "userinfo")
        guard let subject = claims["sub"]?.stringValue else {
            throw .invalidResponse(endpoint: "userinfo", reason: "missing sub")
        }
        guard subject == expectedSubject else {
            throw .userInfoSubjectMismatch(expected: expectedSubject, actual: subject)
        }
        return UserInfo(subject: subject, claims: claims)
    }
}
