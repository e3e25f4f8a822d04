import Foundation

/// An OAuth 2.0 Token Exchange request (RFC 8693 §2.1): trade a token from one context for one from another —
/// for example a third-party provider's ID token for a Limen session.
public struct TokenExchangeRequest: Sendable, Equatable {
    /// Token type identifiers from RFC 8693 §3.
    public enum TokenType {
        /// `urn:ietf:params:oauth:token-type:access_token`
        public static let accessToken = "urn:ietf:params:oauth:token-type:access_token"
        /// `urn:ietf:params:oauth:token-type:refresh_token`
        public static let refreshToken = "urn:ietf:params:oauth:token-type:refresh_token"
        /// `urn:ietf:params:oauth:token-type:id_token`
        public static let idToken = "urn:ietf:params:oauth:token-type:id_token"
        /// `urn:ietf:params:oauth:token-type:jwt`
        public static let jwt = "urn:ietf:params:oauth:token-type:jwt"
    }

    /// The token to exchange.
    public var subjectToken: String
    /// Its type, one of ``TokenType``.
    public var subjectTokenType: String
    /// A token representing the acting party, for delegation.
    public var actorToken: String?
    /// The actor token's type.
    public var actorTokenType: String?
    /// The type of token wanted back.
    public var requestedTokenType: String?
    /// Where the new token will be used (URIs).
    public var resource: [String]
    /// The logical names of the target services.
    public var audience: [String]
    /// Requested scopes.
    public var scopes: [String]

    /// Creates a request.
    public init(
        subjectToken: String,
        subjectTokenType: String,
        actorToken: String? = nil,
        actorTokenType: String? = nil,
        requestedTokenType: String? = nil,
        resource: [String] = [],
        audience: [String] = [],
        scopes: [String] = []
    ) {
        self.subjectToken = subjectToken
        self.subjectTokenType = subjectTokenType
        self.actorToken = actorToken
        self.actorTokenType = actorTokenType
        self.requestedTokenType = requestedTokenType
        self.resource = resource
        self.audience = audience
        self.scopes = scopes
    }

    /// The form fields, `grant_type` first.
    package var fields: [(String, String)] {
        var fields: [(String, String)] = [
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"),
            ("subject_token", subjectToken),
            ("subject_token_type", subjectTokenType),
        ]
        if let actorToken, let actorTokenType {
            fields += [("actor_token", actorToken), ("actor_token_type", actorTokenType)]
        }
        if let requestedTokenType { fields.append(("requested_token_type", requestedTokenType)) }
        fields += resource.map { ("resource", $0) } + audience.map { ("audience", $0) }
        if !scopes.isEmpty { fields.append(("scope", scopes.joined(separator: " "))) }
        return fields
    }
}
