import Foundation
import LimenWire

/// Another OpenID provider (or any JWT issuer) whose tokens `/token` exchanges for Limen tokens (RFC 8693): the
/// `trusted_issuers` setting, one entry each.
///
/// ```yaml
/// trusted_issuers:
///   - issuer: https://accounts.google.com
///     audiences: [1234-abcd.apps.googleusercontent.com]   # the token's aud must name one of these
///     algorithms: [RS256]                                  # default: RS256, ES256
///     max_token_age: 10m                                   # iat at most this old (default: exp alone decides)
///     link_by_verified_email: false                        # the default
///   - issuer: https://id.partner.example
///     jwks_url: https://id.partner.example/keys            # instead of discovery from the issuer
///     audiences: [limen]
///     claims: {email: mail, name: display_name}            # where the address and the name are read
/// ```
///
/// A user signs in with such a token through an identity of kind ``identityKind`` (`oidc:` and the issuer; `apple` for
/// the Sign in with Apple preset, ``AppleSignIn``) whose subject is the token's `sub`.
public struct TrustedIssuer: Sendable, Equatable {
    /// The algorithms accepted when an entry names none.
    public static let defaultAlgorithms: [JWSAlgorithm] = [.rs256, .es256]

    /// The `iss` the tokens carry, compared exactly.
    public var issuer: String
    /// Where the signing keys are published; `nil`: the `jwks_uri` of the issuer's discovery document.
    public var jwksURL: URL?
    /// The token's `aud` must name at least one of these (the client IDs the issuer knows the app by).
    public var audiences: [String]
    /// The signing algorithms accepted; never `none` nor an HMAC, which a published key cannot check.
    public var algorithms: [JWSAlgorithm]
    /// How old a token may be, by its `iat`, in seconds; `nil`: any age until its `exp`.
    public var maxTokenAge: TimeInterval?
    /// Whether a token with a verified address (`email_verified: true`) whose address is a Limen user's signs in as that
    /// user (linking the identity); off by default, as it trusts the issuer to verify addresses.
    public var linkByVerifiedEmail: Bool
    /// Which claims hold what Limen reads besides `sub`.
    public var claims: ClaimNames
    /// The kind of the identities of this issuer's users: `oidc:` followed by the issuer unless a preset names another.
    public var identityKind: String

    /// Where Limen reads a user's address, whether it is verified, and their name.
    public struct ClaimNames: Sendable, Equatable {
        /// The address (default `email`).
        public var email = "email"
        /// Whether the issuer verified the address (default `email_verified`).
        public var emailVerified = "email_verified"
        /// The display name (default `name`).
        public var name = "name"

        /// The standard claim names.
        public init() {}
    }

    /// Creates a trusted issuer.
    public init(
        issuer: String,
        jwksURL: URL? = nil,
        audiences: [String],
        algorithms: [JWSAlgorithm] = TrustedIssuer.defaultAlgorithms,
        maxTokenAge: TimeInterval? = nil,
        linkByVerifiedEmail: Bool = false,
        claims: ClaimNames = ClaimNames(),
        identityKind: String? = nil
    ) {
        self.issuer = issuer
        self.jwksURL = jwksURL
        self.audiences = audiences
        self.algorithms = algorithms
        self.maxTokenAge = maxTokenAge
        self.linkByVerifiedEmail = linkByVerifiedEmail
        self.claims = claims
        self.identityKind = identityKind ?? Self.identityKind(issuer: issuer)
    }

    /// The identity kind for tokens of `issuer`.
    public static func identityKind(issuer: String) -> String { "oidc:\(issuer)" }
}
