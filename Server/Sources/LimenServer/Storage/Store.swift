import Foundation

/// The server's persistence seam: every table the provider needs, behind one small async protocol.
///
/// Implementations: ``SQLiteStore`` (embedded default, one file). Secrets never reach a store in clear:
/// client secrets, authorization codes and refresh tokens arrive as SHA-256 hashes, signing keys as AES-GCM
/// ciphertext.
public protocol Store:
    Sendable, UserStore, SignInThrottleStore, PendingAuthorizationStore, BrowserSessionStore, ConsentStore,
    GrantStore, RefreshTokenStore, DeviceAuthorizationStore, AdministrationStore, FirstRunStore, ProfileStore,
    AccessTokenStateStore, FlowInteractionStore, EmailCodeStore, IdentityStore, AppleAccountStore, MailOutboxStore,
    EmailCodeBudgetStore, ExchangedTokenStore
{
    /// Applies every schema migration not yet applied; running it again changes nothing.
    func migrate() async throws(StorageError)
    /// Says that the provider's start — migrations, the key set, the seeded clients — is over: until then SQLite waits
    /// longer for another process's write lock (nodes starting together on one file take turns through all of it).
    func startupCompleted() async throws(StorageError)
    /// Checks that the store answers (used by `/healthz`).
    func ping() async throws(StorageError)
    /// Releases the connection; the store is not used afterwards.
    func close() async

    /// The client with this identifier, if registered.
    func client(id: String) async throws(StorageError) -> ClientRecord?
    /// Every registered client, ordered by identifier.
    func clients() async throws(StorageError) -> [ClientRecord]
    /// Registers `client` unless a client with its identifier exists; returns whether it was inserted.
    @discardableResult
    func insertClientIfAbsent(_ client: ClientRecord) async throws(StorageError) -> Bool
    /// Removes the client (and its codes, grants and their tokens); returns whether it existed.
    @discardableResult
    func deleteClient(id: String) async throws(StorageError) -> Bool
    /// Replaces the client's branding (`nil` removes it); returns whether the client exists.
    @discardableResult
    func updateClientBranding(id: String, branding: ClientBranding?) async throws(StorageError) -> Bool

    /// Every signing key, oldest first.
    func signingKeys() async throws(StorageError) -> [SigningKeyRecord]
    /// Stores a new signing key.
    func insertSigningKey(_ key: SigningKeyRecord) async throws(StorageError)
    /// Marks a key as no longer signing from `date` on (it stays published for a while).
    func retireSigningKey(kid: String, at date: Date) async throws(StorageError)

    /// Stores a new authorization code (by its hash).
    func insertAuthorizationCode(_ code: AuthorizationCodeRecord) async throws(StorageError)
    /// Deletes codes that expired before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredAuthorizationCodes(before date: Date) async throws(StorageError) -> Int
}

/// A registered OAuth client.
public struct ClientRecord: Sendable, Equatable {
    /// How a client authenticates at the token endpoint (RFC 6749 §2.1).
    public enum Kind: String, Sendable, Equatable {
        /// Cannot keep a secret (native and browser apps).
        case `public`
        /// Holds a secret (server-side apps).
        case confidential
    }

    /// The `client_id`.
    public var id: String
    /// A name to show on consent pages.
    public var name: String
    /// Public or confidential.
    public var kind: Kind
    /// SHA-256 of the client secret; `nil` for public clients.
    public var secretHash: Data?
    /// A native app: loopback redirect URIs match on any port (RFC 8252 §7.3).
    public var isNative: Bool
    /// Registered redirect URIs, matched exactly.
    public var redirectURIs: [String]
    /// Registered post-logout redirect URIs.
    public var postLogoutRedirectURIs: [String]
    /// Grant types the client may use.
    public var grantTypes: [String]
    /// A first-party client skips the consent page.
    public var isFirstParty: Bool
    /// The algorithm its ID tokens are signed with (`ES256` or `RS256`).
    public var idTokenSignedResponseAlg: String
    /// How long its access tokens live, in seconds; `nil`: the server's ``TokenLifetimes/accessToken``.
    public var accessTokenLifetime: TimeInterval?
    /// How long its refresh tokens live, in seconds; `nil`: the server's ``TokenLifetimes/refreshToken``.
    public var refreshTokenLifetime: TimeInterval?
    /// A legacy confidential client that may leave out PKCE (OAuth 2.1 requires it of every client); off by default.
    public var allowsNoPKCE: Bool
    /// How the hosted pages present it; `nil`: its name, the server's colours.
    public var branding: ClientBranding?
    /// Where the link in an email with a one-time code leads (a universal link or the app's own scheme); `nil`: the
    /// issuer's hosted page (``EmailLink``).
    public var emailLinkURI: String?
    /// When the client was registered.
    public var createdAt: Date

    /// Creates a client record.
    public init(
        id: String,
        name: String,
        kind: Kind,
        secretHash: Data? = nil,
        isNative: Bool = false,
        redirectURIs: [String],
        postLogoutRedirectURIs: [String] = [],
        grantTypes: [String] = ["authorization_code", "refresh_token"],
        isFirstParty: Bool = false,
        idTokenSignedResponseAlg: String = "ES256",
        accessTokenLifetime: TimeInterval? = nil,
        refreshTokenLifetime: TimeInterval? = nil,
        allowsNoPKCE: Bool = false,
        branding: ClientBranding? = nil,
        createdAt: Date,
        emailLinkURI: String? = nil
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.secretHash = secretHash
        self.isNative = isNative
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.grantTypes = grantTypes
        self.isFirstParty = isFirstParty
        self.idTokenSignedResponseAlg = idTokenSignedResponseAlg
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.allowsNoPKCE = allowsNoPKCE
        self.branding = branding
        self.createdAt = createdAt
        self.emailLinkURI = emailLinkURI
    }
}

extension ClientRecord {
    /// Whether its authorization requests may come without PKCE: only a confidential client registered with
    /// ``allowsNoPKCE``; every other client must send an S256 challenge (OAuth 2.1, RFC 9700 §2.1.1).
    var mayLeaveOutPKCE: Bool { kind == .confidential && allowsNoPKCE }
}

/// A signing key as stored: the private key only as AES-GCM ciphertext under the master key.
public struct SigningKeyRecord: Sendable, Equatable {
    /// The key ID (RFC 7638 thumbprint of the public key).
    public var kid: String
    /// `ES256` or `RS256`.
    public var algorithm: String
    /// The private key, sealed with AES-GCM (nonce, ciphertext and tag), bound to `kid`.
    public var encryptedPrivateKey: Data
    /// When the key was created (and published).
    public var createdAt: Date
    /// When the key starts signing: after it has been published long enough for clients to have fetched it.
    public var activatesAt: Date
    /// When the key stopped signing; it stays published until tokens it signed expire.
    public var retiredAt: Date?

    /// Creates a signing key record; `activatesAt` defaults to `createdAt`.
    public init(
        kid: String,
        algorithm: String,
        encryptedPrivateKey: Data,
        createdAt: Date,
        activatesAt: Date? = nil,
        retiredAt: Date? = nil
    ) {
        self.kid = kid
        self.algorithm = algorithm
        self.encryptedPrivateKey = encryptedPrivateKey
        self.createdAt = createdAt
        self.activatesAt = activatesAt ?? createdAt
        self.retiredAt = retiredAt
    }
}

/// An issued authorization code, kept by its SHA-256 hash.
public struct AuthorizationCodeRecord: Sendable, Equatable {
    /// SHA-256 of the code.
    public var codeHash: Data
    /// The client it was issued to.
    public var clientID: String
    /// The redirect URI of the authorization request (must be repeated at the token endpoint).
    public var redirectURI: String
    /// The signed-in user.
    public var subject: String
    /// The granted scope.
    public var scope: String
    /// The request's `nonce`, echoed in the ID token.
    public var nonce: String?
    /// The PKCE challenge (S256).
    public var codeChallenge: String?
    /// When the user authenticated.
    public var authTime: Date
    /// When the code stops being accepted.
    public var expiresAt: Date
    /// SHA-256 of the browser session that signed in for it: a grant without `offline_access` ends with that session.
    public var browserSessionHash: Data?

    /// Creates an authorization code record.
    public init(
        codeHash: Data,
        clientID: String,
        redirectURI: String,
        subject: String,
        scope: String,
        nonce: String? = nil,
        codeChallenge: String? = nil,
        authTime: Date,
        expiresAt: Date,
        browserSessionHash: Data? = nil
    ) {
        self.codeHash = codeHash
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.subject = subject
        self.scope = scope
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.authTime = authTime
        self.expiresAt = expiresAt
        self.browserSessionHash = browserSessionHash
    }
}

/// A failure of the storage layer.
public enum StorageError: Error, Sendable, Equatable, LocalizedError {
    /// The database could not be opened or created.
    case openFailed(String)
    /// A statement failed.
    case queryFailed(String)
    /// A migration failed; the schema is left at the last version that applied.
    case migrationFailed(version: Int, reason: String)
    /// A row did not hold what the schema promises.
    case corruptRow(String)

    /// A stable code for logs and tests.
    public var code: String {
        switch self {
        case .openFailed: "storage.open_failed"
        case .queryFailed: "storage.query_failed"
        case .migrationFailed: "storage.migration_failed"
        case .corruptRow: "storage.corrupt_row"
        }
    }

    /// A human message.
    public var errorDescription: String? {
        switch self {
        case .openFailed(let reason): "Cannot open the database: \(reason)"
        case .queryFailed(let reason): "A database query failed: \(reason)"
        case .migrationFailed(let version, let reason): "Schema migration \(version) failed: \(reason)"
        case .corruptRow(let reason): "A database row is not valid: \(reason)"
        }
    }
}
