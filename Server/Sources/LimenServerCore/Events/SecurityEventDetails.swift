import Foundation
import LimenServerStorage
import LimenServerWire

/// What an event says beyond its user and client, as a flat JSON object of strings. Built only from typed values (a
/// sign-in method, a reason code, the names of changed fields): there is no way to put a caller's free text in, so no
/// password, code, token or secret can reach the trail.
public struct SecurityEventDetails: Sendable, Equatable {
    /// The object's members.
    public private(set) var fields: [String: String]

    /// Details of `fields`: only for the typed constructors of this module (``webhook(_:changed:)`` and the above).
    init(_ fields: [String: String]) {
        self.fields = fields
    }

    /// No details.
    public static let none = SecurityEventDetails([:])

    /// How a user signed in.
    public static func signIn(method: SignInMethod) -> SecurityEventDetails {
        SecurityEventDetails(["method": method.rawValue])
    }

    /// Why a sign-in was refused.
    public static func signInFailed(reason: SignInFailureReason) -> SecurityEventDetails {
        SecurityEventDetails(["reason": reason.rawValue])
    }

    /// Which identity was linked or unlinked: its kind (`email`, `phone`, `apple`, `oidc:<issuer>`), never its value.
    public static func identity(_ kind: String) -> SecurityEventDetails {
        SecurityEventDetails(["identity": kind])
    }

    /// Which second factor was enrolled or removed.
    public static func secondFactor(_ factor: SecondFactorKind) -> SecurityEventDetails {
        SecurityEventDetails(["factor": factor.rawValue])
    }

    /// Why a grant was revoked or a session ended.
    public static func ended(_ reason: EndReason) -> SecurityEventDetails {
        SecurityEventDetails(["reason": reason.rawValue])
    }

    /// The new signing key of a rotation: its `kid` (published in the JWKS anyway) and algorithm.
    public static func rotatedKey(kid: String, algorithm: SigningAlgorithm) -> SecurityEventDetails {
        SecurityEventDetails(["kid": kid, "algorithm": algorithm.rawValue])
    }

    /// The role a user was given or lost.
    public static func role(_ role: UserRole) -> SecurityEventDetails {
        SecurityEventDetails(["role": role.rawValue])
    }

    /// Which fields a change touched (their names, never their values), in a stable order.
    public static func changed(_ fields: Set<ChangedField>) -> SecurityEventDetails {
        SecurityEventDetails(["fields": fields.map(\.rawValue).sorted().joined(separator: ",")])
    }

    /// The object as compact JSON with sorted keys, as stored.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(fields)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The names of the fields a change may touch.
    public enum ChangedField: String, Sendable, Hashable, CaseIterable {
        /// A display name.
        case name
        /// Whether an email address is verified.
        case emailVerified = "email_verified"
        /// A password (never its value).
        case password
        /// A client's branding.
        case branding
        /// A client's redirect URIs.
        case redirectURIs = "redirect_uris"
        /// A client's post-logout redirect URIs.
        case postLogoutRedirectURIs = "post_logout_redirect_uris"
        /// A client's own access token lifetime.
        case accessTokenTTL = "access_token_ttl"
        /// A client's own refresh token lifetime.
        case refreshTokenTTL = "refresh_token_ttl"
    }
}

/// A second factor, as `mfa.enrolled` and `mfa.removed` record it.
public enum SecondFactorKind: String, Sendable, CaseIterable {
    /// An authenticator app's codes (TOTP).
    case totp
    /// The recovery codes.
    case recoveryCodes = "recovery_codes"
}

/// Why a grant was revoked or a session ended, as `grant.revoked` and `session.ended` record it.
public enum EndReason: String, Sendable, CaseIterable {
    /// The client asked (RFC 7009 revocation).
    case revoked
    /// The user signed out.
    case loggedOut = "logged_out"
    /// The user signed out everywhere, from their account page.
    case signedOutEverywhere = "signed_out_everywhere"
    /// A spent refresh token came back: the whole grant is revoked.
    case reuse
}

/// How a user signed in, as `user.signed_in` records it: `password`, `email_code`, `phone_code`, `passkey`, `apple`,
/// `oidc:<issuer>`, `anonymous` or `token_exchange`.
public struct SignInMethod: RawRepresentable, Hashable, Sendable, Codable {
    /// The stable string.
    public let rawValue: String

    /// The method spelled `rawValue` when it is one of the above.
    public init?(rawValue: String) {
        let fixed = [Self.password, .emailCode, .phoneCode, .passkey, .apple, .anonymous, .tokenExchange]
        guard fixed.contains(where: { $0.rawValue == rawValue }) || rawValue.hasPrefix("oidc:") else { return nil }
        self.rawValue = rawValue
    }

    private init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A password.
    public static let password = Self("password")
    /// A code sent by email.
    public static let emailCode = Self("email_code")
    /// A code sent by SMS.
    public static let phoneCode = Self("phone_code")
    /// A passkey.
    public static let passkey = Self("passkey")
    /// Sign in with Apple.
    public static let apple = Self("apple")
    /// A guest account.
    public static let anonymous = Self("anonymous")
    /// An RFC 8693 token exchange.
    public static let tokenExchange = Self("token_exchange")

    /// An upstream OpenID provider, by its issuer (an operator-configured URL, not a secret).
    public static func oidc(issuer: String) -> SignInMethod {
        Self("oidc:" + issuer)
    }
}

/// Why a sign-in was refused, as `user.sign_in_failed` records it.
public enum SignInFailureReason: String, Sendable, CaseIterable {
    /// The password did not match.
    case wrongPassword = "wrong_password"
    /// No account has that email address.
    case unknownUser = "unknown_user"
    /// A code sent by email or SMS was wrong, used, expired or never sent.
    case wrongCode = "wrong_code"
    /// A passkey's assertion did not verify (unknown credential, bad signature, wrong challenge or origin).
    case passkeyFailed = "passkey_failed"
    /// The second step of a two-step sign-in was wrong (an authenticator code or a recovery code).
    case wrongSecondFactor = "wrong_second_factor"
    /// The user authenticated, but an admin disabled them.
    case disabled
}
