import Foundation

/// An upstream OpenID provider people may sign in with on the hosted pages ("Continue with …"): the
/// `identity_providers` setting, one entry each. Limen is its relying party: authorization code with PKCE, `state` and
/// `nonce`, the ID token fully validated (LimenOIDC), RFC 9207's `iss` checked when the provider sends it.
///
/// ```yaml
/// identity_providers:
///   - id: partner                              # in the URLs: /federation/partner/start, /federation/partner/callback
///     display_name: Partner ID                 # the button reads "Continue with Partner ID"
///     issuer: https://id.partner.example       # discovery from {issuer}/.well-known/openid-configuration
///     client_id: limen
///     client_secret: …                         # sent with HTTP Basic; leave out for a public client (PKCE only)
///     scopes: [openid, email, profile]         # the default; openid is always sent
///     link_by_verified_email: false            # the default
/// ```
///
/// Register `{limen issuer}/federation/{id}/callback` as the redirect URI at the provider. A person who signs in this
/// way has an identity of kind ``identityKind`` (`oidc:` and the issuer) whose subject is the ID token's `sub`.
public struct IdentityProvider: Sendable, Equatable {
    /// The scopes asked for when an entry names none.
    public static let defaultScopes = ["openid", "email", "profile"]

    /// The provider's name in Limen's URLs and in `idp_hint`: lowercase letters, digits, `-` and `_`.
    public var id: String
    /// The name on its button.
    public var displayName: String
    /// Its issuer identifier, compared exactly with the discovery document's, the ID token's `iss` and RFC 9207's.
    public var issuer: String
    /// Limen's client ID at the provider.
    public var clientID: String
    /// Limen's client secret at the provider (HTTP Basic at its token endpoint); `nil` for a public client. Never
    /// logged nor shown: ``description`` leaves it out.
    public var clientSecret: String?
    /// The scopes asked for; `openid` is always sent.
    public var scopes: [String]
    /// Whether a person whose ID token carries a verified address (`email_verified: true`) that is a Limen user's
    /// verified address signs in as that user (linking the identity); off by default, as it trusts the provider to
    /// verify addresses.
    public var linkByVerifiedEmail: Bool

    /// Creates a provider entry.
    public init(
        id: String,
        displayName: String,
        issuer: String,
        clientID: String,
        clientSecret: String? = nil,
        scopes: [String] = IdentityProvider.defaultScopes,
        linkByVerifiedEmail: Bool = false
    ) {
        self.id = id
        self.displayName = displayName
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes
        self.linkByVerifiedEmail = linkByVerifiedEmail
    }

    /// The kind of the identities of this provider's users: `oidc:` followed by the issuer (as for a trusted issuer of
    /// token exchange, so that both ways in lead to one account).
    public var identityKind: String { TrustedIssuer.identityKind(issuer: issuer) }
}

extension IdentityProvider: CustomStringConvertible, CustomDebugStringConvertible {
    /// The entry without its secret, safe to log.
    public var description: String {
        "IdentityProvider(id: \(id), issuer: \(issuer), client_id: \(clientID), client_secret: "
            + (clientSecret == nil ? "none" : "(hidden)") + ")"
    }

    /// As ``description``.
    public var debugDescription: String { description }
}
