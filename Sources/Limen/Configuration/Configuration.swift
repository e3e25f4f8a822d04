import Foundation
import LimenOIDC
import Logging

/// Everything an ``AuthClient`` needs to know about its provider and itself.
///
/// ```swift
/// let configuration = Configuration(
///     issuer: URL(string: "https://id.example.com")!,
///     clientID: "ios-app",
///     redirectURI: URL(string: "com.example.app:/callback")!,
///     scopes: ["profile", "email", "offline_access"]
/// )
/// ```
public struct Configuration: Sendable {
    /// The provider's issuer identifier (discovery starts here).
    public var issuer: URL
    /// The client identifier registered with the provider.
    public var clientID: String
    /// The registered redirect URI (a loopback user agent may substitute its own port).
    public var redirectURI: URL?
    /// Scopes requested at sign-in, besides `openid`; by default ``defaultScopes``.
    public var scopes: [String]
    /// A client secret, for confidential clients only (never ship one inside an app).
    public var clientSecret: String?
    /// How a confidential client presents its secret.
    public var secretMethod: SecretMethod
    /// Where post-logout redirects go (RP-initiated logout).
    public var postLogoutRedirectURI: URL?
    /// Tolerance for clock skew and the margin before expiry at which tokens are refreshed (default 60 s).
    public var leeway: TimeInterval
    /// The storage namespace; clients with different namespaces keep separate sessions in one store.
    public var namespace: String
    /// Where the session is kept: by default the platform's secure store (see ``DefaultStore``).
    public var store: any SecureStore
    /// How HTTP requests are sent.
    public var transport: any HTTPTransport
    /// The keys each pinned host may present (see <doc:PinningCertificates>); none by default. The transport must be a
    /// ``PinnableTransport`` that can pin (the default can on Apple platforms): otherwise requests to pinned hosts fail
    /// with ``ConfigurationError/pinningUnavailable(host:)``.
    public var pinning: CertificatePinning
    /// Where diagnostics go. Tokens, codes and secrets are never logged.
    public var logger: Logger
    /// The device's current time; injected by tests. An ``AuthClient`` corrects it by the provider's clock (from the
    /// `Date` of the provider's answers) for every time decision: its own ``AuthClient/configuration`` has the
    /// corrected clock.
    public var now: @Sendable () -> Date
    /// What every wait uses: the default transport's retry back-off and device-grant polling; injected by tests.
    public var clock: any Clock<Duration>
    /// Whether signing out keeps the user's field-encryption key in the store (``EncryptionKeyRetention/keep``, the
    /// default) or deletes it (``EncryptionKeyRetention/delete``). Set it on the value after creating it:
    ///
    /// ```swift
    /// var configuration = Configuration(issuer: issuer, clientID: "ios-app")
    /// configuration.encryptionKeyOnSignOut = .delete
    /// ```
    public var encryptionKeyOnSignOut: EncryptionKeyRetention = .keep
    /// Where the DPoP key comes from (RFC 9449, see <doc:SenderConstrainedTokens>); `nil` (the default) sends bearer
    /// requests as before. With a source, every token request carries a DPoP proof of the key, and
    /// ``AuthClient/authorizedRequest(_:)`` presents DPoP-bound access tokens with a proof. Set it on the value:
    ///
    /// ```swift
    /// var configuration = Configuration(issuer: issuer, clientID: "ios-app")
    /// configuration.dpop = SoftwareDPoPKeys()  // or LimenApple's SecureEnclaveDPoPKeys()
    /// ```
    public var dpop: (any DPoPKeySource)?
    /// What ``AuthClient/signInWithApple(allowMigration:)`` asks for Apple's credential (`LimenApple`'s
    /// `AppleIDAuthorizationSheet` on Apple platforms); `nil` by default. Set it on the value after creating it.
    public var appleAuthorization: (any AppleIDAuthorizing)?
    /// What ``AuthClient/checkCredentialState()`` asks about the signed-in user's Apple ID (`LimenApple`'s
    /// `AppleIDProviderCredentialStates` on Apple platforms); `nil` by default. Set it on the value after creating it.
    public var appleCredentialStates: (any AppleCredentialStateSource)?
    /// How clients in other processes sharing ``store`` hear of this one's sign-in, refresh or sign-out, and it of
    /// theirs (`Configuration.appGroup(_:onSessionChange:)` sets a Darwin notification channel); `nil` by default.
    public var sessionChanges: (any SessionChangeChannel)?
    /// Called after this client's session changed: by its own sign-in, refresh or sign-out, or by another process's
    /// (heard through ``sessionChanges``). For example LimenApple's `WidgetTimelines.reloadAll`; `nil` by default.
    public var onSessionChange: (@Sendable () -> Void)?

    /// `offline_access` (OpenID Connect Core §11): an app's session is meant to last, so its refresh token must not
    /// end when the user signs out of the provider's web pages (many providers, Limen Server among them, tie a refresh
    /// token without it to that browser session). Pass other scopes for a provider that does not know it.
    public static let defaultScopes = ["offline_access"]

    /// How a confidential client authenticates at the token endpoint.
    public enum SecretMethod: String, Sendable, Codable {
        /// HTTP Basic (`client_secret_basic`, the default).
        case basic = "client_secret_basic"
        /// In the form body (`client_secret_post`).
        case post = "client_secret_post"
    }

    /// Creates a configuration; storage defaults to the platform's secure store (the Keychain in an Apple app, an
    /// ``EncryptedFileStore`` elsewhere; see ``DefaultStore``), transport to a ``RetryingTransport`` over
    /// `URLSessionTransport` waiting on `clock`, pinning to none. Pass a ``MemoryStore`` for a session that must not
    /// outlive the process.
    public init(
        issuer: URL,
        clientID: String,
        redirectURI: URL? = nil,
        scopes: [String] = Configuration.defaultScopes,
        clientSecret: String? = nil,
        secretMethod: SecretMethod = .basic,
        postLogoutRedirectURI: URL? = nil,
        leeway: TimeInterval = 60,
        namespace: String = "default",
        store: (any SecureStore)? = nil,
        transport: (any HTTPTransport)? = nil,
        pinning: CertificatePinning = CertificatePinning(),
        logger: Logger = Logger(label: "limen"),
        now: @escaping @Sendable () -> Date = Date.init,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.clientSecret = clientSecret
        self.secretMethod = secretMethod
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.leeway = leeway
        self.namespace = namespace
        self.store = store ?? DefaultStore.current.makeStore()
        self.transport = transport ?? RetryingTransport(base: URLSessionTransport(), clock: clock)
        self.pinning = pinning
        self.logger = logger
        self.now = now
        self.clock = clock
    }

    /// The client authentication these settings imply.
    public var clientAuthentication: ClientAuthentication {
        guard let clientSecret else { return .none(clientID: clientID) }
        switch secretMethod {
        case .basic: return .clientSecretBasic(clientID: clientID, secret: clientSecret)
        case .post: return .clientSecretPost(clientID: clientID, secret: clientSecret)
        }
    }
}
