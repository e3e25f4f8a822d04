import Foundation
import LimenServerStorage
import LimenWire

/// The claims of an access token this provider issued and still honours.
package struct AccessTokenClaims: Sendable, Equatable {
    /// The user (`sub`).
    package var subject: String
    /// The client it was issued to (`client_id`).
    package var clientID: String
    /// The granted scope.
    package var scope: String
    /// The grant it belongs to.
    package var grantID: String
    /// Its identifier (`jti`), by which it alone can be revoked.
    package var tokenID: String
    /// When it was issued.
    package var issuedAt: Date
    /// When it expires.
    package var expiresAt: Date
    /// Every claim, as signed.
    package var all: [String: JSONValue]

    /// Makes it of its parts.
    package init(
        subject: String, clientID: String, scope: String, grantID: String, tokenID: String, issuedAt: Date,
        expiresAt: Date, all: [String: JSONValue]
    ) {
        self.subject = subject
        self.clientID = clientID
        self.scope = scope
        self.grantID = grantID
        self.tokenID = tokenID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.all = all
    }
}

extension AccessTokenClaims {
    /// Its `aud`, a string or an array of them (RFC 7519 §4.1.3).
    package var audience: [String] {
        switch all["aud"] {
        case .string(let audience): [audience]
        case .array(let values): values.compactMap(\.stringValue)
        default: []
        }
    }

    /// The thumbprint of the key it is bound to (`cnf.jkt`, RFC 9449 §6.1): it is honoured only with a DPoP proof by
    /// that key. `nil` for a bearer token.
    package var confirmationKey: String? {
        guard case .object(let confirmation)? = all["cnf"] else { return nil }
        return confirmation["jkt"]?.stringValue
    }

    /// How its user signed in (`amr`): none when it does not say.
    package var methods: AuthenticationMethods {
        guard case .array(let values)? = all["amr"] else { return AuthenticationMethods() }
        return AuthenticationMethods(values.compactMap { $0.stringValue.flatMap(AuthenticationMethod.init(rawValue:)) })
    }

    /// When its user signed in (`auth_time`), if it says.
    package var authTime: Date? {
        all["auth_time"]?.numberValue.map(Date.init(timeIntervalSince1970:))
    }
}
