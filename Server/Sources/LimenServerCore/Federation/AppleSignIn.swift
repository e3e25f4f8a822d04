import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// Sign in with Apple: the `apple` setting. Apple is a trusted-issuer preset (``trustedIssuer``): its identity tokens
/// are checked as any trusted issuer's are, plus the nonce (``AppleIdentityVerifier``), and they sign in through the
/// built-in `apple` flow (`POST /flows/apple`, offered with this setting only: Limen's own SDK, with the linking cases
/// of ``AccountLinking``) or the AppleSignInKit-compatible routes (`POST /auth/apple/native`); Apple's server-to-server
/// notifications arrive at `POST /auth/apple/notifications`.
///
/// ```yaml
/// apple:
///   bundle_ids: [com.example.app]              # required: the identity token's aud must name one of these
///   base_url: https://appleid.apple.com        # the default; a local stand-in in tests
///   link_by_verified_email: false              # the default (as for trusted_issuers)
///   team_id: ABCDE12345                        # these three together, for redeeming authorization codes
///   key_id: XYZ987WVU6
///   private_key_file: /etc/limen/AuthKey_XYZ987WVU6.p8
/// ```
public struct AppleSignIn: Sendable, Equatable {
    /// Apple's issuer and base URL.
    public static let defaultBaseURL = "https://appleid.apple.com"
    /// The kind of the identities Apple's users sign in with; their subject is Apple's `sub`.
    public static let identityKind = "apple"
    /// The public client the AppleSignInKit-compatible routes issue tokens to (registered at start).
    public static let clientID = "apple-signin-kit"
    /// The algorithm Apple signs identity tokens with.
    public static let algorithms: [JWSAlgorithm] = [.rs256]

    /// The app's bundle IDs (Services IDs for the web): the identity token's `aud`.
    public var bundleIDs: [String]
    /// Apple's base URL, which is also the tokens' `iss`; the keys are at `{base_url}/auth/keys`.
    public var baseURL: String
    /// Whether an identity token with a verified address that is a Limen user's signs in as that user.
    public var linkByVerifiedEmail: Bool
    /// The team's key for redeeming authorization codes at Apple, when configured: checked at start (all three members,
    /// a readable P-256 key). With it, Apple's authorization code is redeemed at each sign-in that sends one, Apple's
    /// refresh token kept sealed, and revoked when the account is deleted (``AppleAccounts``).
    public var teamKey: TeamKey?

    /// The team key Apple issued for Sign in with Apple: with it the server signs its client secret (ES256).
    public struct TeamKey: Sendable, Equatable {
        /// The Apple Developer team ID.
        public var teamID: String
        /// The key's ID.
        public var keyID: String
        /// The `.p8` file holding the P-256 private key (PEM).
        public var privateKeyFile: String

        /// Creates a team key setting.
        public init(teamID: String, keyID: String, privateKeyFile: String) {
            self.teamID = teamID
            self.keyID = keyID
            self.privateKeyFile = privateKeyFile
        }
    }

    /// Creates the setting.
    public init(
        bundleIDs: [String],
        baseURL: String = AppleSignIn.defaultBaseURL,
        linkByVerifiedEmail: Bool = false,
        teamKey: TeamKey? = nil
    ) {
        self.bundleIDs = bundleIDs
        self.baseURL = baseURL
        self.linkByVerifiedEmail = linkByVerifiedEmail
        self.teamKey = teamKey
    }

    /// Apple as a trusted issuer: `iss` the base URL, keys at `{base_url}/auth/keys`, audiences the bundle IDs, RS256,
    /// identities of kind ``identityKind``.
    public var trustedIssuer: TrustedIssuer {
        TrustedIssuer(
            issuer: baseURL, jwksURL: URL(string: baseURL + "/auth/keys"), audiences: bundleIDs,
            algorithms: Self.algorithms, linkByVerifiedEmail: linkByVerifiedEmail, identityKind: Self.identityKind)
    }

    /// The client the routes' grants belong to: public, native, refresh tokens only (no redirect: it never
    /// authorizes in a browser).
    package static func client(now: Date) -> ClientRecord {
        ClientRecord(
            id: clientID, name: "Sign in with Apple (AppleSignInKit)", kind: .public, isNative: true, redirectURIs: [],
            grantTypes: [.refreshToken], isFirstParty: true, createdAt: now)
    }
}
