import Foundation

/// A successful token endpoint answer (RFC 6749 §5.1, OpenID Connect Core §3.1.3.3, RFC 8693 §2.2.1).
public struct TokenResponse: Sendable, Equatable, Codable {
    /// The access token.
    public var accessToken: String
    /// The token type, normally `Bearer` (compared case-insensitively) or `DPoP`.
    public var tokenType: String
    /// Lifetime of the access token in seconds, when the server says.
    public var expiresIn: TimeInterval?
    /// A refresh token, when issued or rotated.
    public var refreshToken: String?
    /// The ID token, for OpenID Connect grants.
    public var idToken: String?
    /// The granted scope when it differs from the requested one.
    public var scope: String?
    /// RFC 8693: the type of the issued token.
    public var issuedTokenType: String?

    /// Creates a response value.
    public init(
        accessToken: String,
        tokenType: String = "Bearer",
        expiresIn: TimeInterval? = nil,
        refreshToken: String? = nil,
        idToken: String? = nil,
        scope: String? = nil,
        issuedTokenType: String? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.scope = scope
        self.issuedTokenType = issuedTokenType
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case scope
        case issuedTokenType = "issued_token_type"
    }

    /// Decodes the answer, accepting `expires_in` as a number or a numeric string (some providers send one).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        tokenType = try container.decode(String.self, forKey: .tokenType)
        if let seconds = try? container.decodeIfPresent(Double.self, forKey: .expiresIn) {
            expiresIn = seconds
        } else {
            expiresIn = try container.decodeIfPresent(String.self, forKey: .expiresIn).flatMap(TimeInterval.init)
        }
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        issuedTokenType = try container.decodeIfPresent(String.self, forKey: .issuedTokenType)
    }

    /// When the access token expires, counting from `receivedAt`; `nil` when the server gave no lifetime.
    public func expiresAt(receivedAt: Date) -> Date? {
        expiresIn.map { receivedAt.addingTimeInterval($0) }
    }
}
