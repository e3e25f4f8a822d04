import Foundation

/// The claims of a validated ID token (OpenID Connect Core §2, §5.1), typed, with every claim kept for lookup.
///
/// ```swift
/// let claims = try await validator.validate(idToken, nonce: nonce)
/// print(claims.subject, claims.email ?? "-")
/// if case .string(let tenant)? = claims["tid"] { … }
/// ```
public struct IDTokenClaims: Sendable, Equatable {
    /// Every claim of the token, standard and custom.
    public let all: [String: JSONValue]

    /// `iss`: the issuer.
    public let issuer: String
    /// `sub`: the user's identifier at the issuer.
    public let subject: String
    /// `aud`: the audiences, whether the token sent one string or an array.
    public let audience: [String]
    /// `exp`: when the token expires.
    public let expiresAt: Date
    /// `iat`: when the token was issued.
    public let issuedAt: Date
    /// `nbf`: before when the token is not valid.
    public let notBefore: Date?
    /// `auth_time`: when the user authenticated.
    public let authTime: Date?
    /// `nonce`: the value the client sent in the authentication request.
    public let nonce: String?
    /// `azp`: the party the token was issued to.
    public let authorizedParty: String?
    /// `at_hash`: the access token hash.
    public let accessTokenHash: String?
    /// `acr`: the authentication context class reference.
    public let authenticationContextClass: String?
    /// `amr`: the authentication methods used.
    public let authenticationMethods: [String]?
    /// `sid`: the session ID (OpenID Connect Front-/Back-Channel Logout).
    public let sessionID: String?
    /// `email`.
    public let email: String?
    /// `email_verified`.
    public let emailVerified: Bool?
    /// `name`.
    public let name: String?
    /// `given_name`.
    public let givenName: String?
    /// `family_name`.
    public let familyName: String?
    /// `preferred_username`.
    public let preferredUsername: String?
    /// `picture`.
    public let picture: String?
    /// `locale`.
    public let locale: String?

    /// A claim by name, standard or custom.
    public subscript(name: String) -> JSONValue? { all[name] }

    /// Types the claims; throws ``IDTokenValidationError/missingClaim(_:)`` when `iss`, `sub`, `aud`, `exp` or
    /// `iat` is absent and ``IDTokenValidationError/invalidClaim(_:)`` when a standard claim has the wrong type.
    public init(claims: [String: JSONValue]) throws(IDTokenValidationError) {
        let reader = ClaimReader(claims: claims)
        all = claims
        issuer = try reader.required("iss", \.stringValue)
        subject = try reader.required("sub", \.stringValue)
        audience = try reader.required("aud", \.stringArrayValue)
        expiresAt = try reader.required("exp", \.dateValue)
        issuedAt = try reader.required("iat", \.dateValue)
        notBefore = try reader.optional("nbf", \.dateValue)
        authTime = try reader.optional("auth_time", \.dateValue)
        nonce = try reader.optional("nonce", \.stringValue)
        authorizedParty = try reader.optional("azp", \.stringValue)
        accessTokenHash = try reader.optional("at_hash", \.stringValue)
        authenticationContextClass = try reader.optional("acr", \.stringValue)
        authenticationMethods = try reader.optional("amr", \.stringArrayValue)
        sessionID = try reader.optional("sid", \.stringValue)
        email = try reader.optional("email", \.stringValue)
        emailVerified = try reader.optional("email_verified", \.boolValue)
        name = try reader.optional("name", \.stringValue)
        givenName = try reader.optional("given_name", \.stringValue)
        familyName = try reader.optional("family_name", \.stringValue)
        preferredUsername = try reader.optional("preferred_username", \.stringValue)
        picture = try reader.optional("picture", \.stringValue)
        locale = try reader.optional("locale", \.stringValue)
    }
}

extension IDTokenClaims: Codable {
    /// Decodes the claims from a JSON object, as ``init(claims:)`` types them.
    public init(from decoder: any Decoder) throws {
        try self.init(claims: [String: JSONValue](from: decoder))
    }

    /// Encodes every claim as one JSON object.
    public func encode(to encoder: any Encoder) throws {
        try all.encode(to: encoder)
    }
}

/// Reads typed claims, telling an absent claim from one of the wrong type.
private struct ClaimReader {
    let claims: [String: JSONValue]

    func required<Value>(
        _ name: String,
        _ read: (JSONValue) -> Value?
    ) throws(IDTokenValidationError) -> Value {
        guard let value = try optional(name, read) else { throw .missingClaim(name) }
        return value
    }

    func optional<Value>(
        _ name: String,
        _ read: (JSONValue) -> Value?
    ) throws(IDTokenValidationError) -> Value? {
        guard let raw = claims[name], raw != .null else { return nil }
        guard let value = read(raw) else { throw .invalidClaim(name) }
        return value
    }
}
