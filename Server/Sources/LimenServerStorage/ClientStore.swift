import Foundation
import LimenServerWire

/// The registered OAuth clients.
public protocol ClientStore: Sendable {
    /// The client with this identifier, if registered.
    func client(id: String) async throws(StorageError) -> ClientRecord?
    /// Every registered client, ordered by identifier.
    func clients() async throws(StorageError) -> [ClientRecord]
    /// Registers `client` unless a client with its identifier exists, with `events` when it was inserted (one unit);
    /// returns whether it was inserted.
    @discardableResult
    func insertClientIfAbsent(_ client: ClientRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    /// Removes the client (and its codes, grants and their tokens), with `events` when it existed (one unit); returns
    /// whether it existed.
    @discardableResult
    func deleteClient(id: String, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool
    /// Replaces the client's branding (`nil` removes it), with `events` when the client exists (one unit); returns
    /// whether it exists.
    @discardableResult
    func updateClientBranding(id: String, branding: ClientBranding?, recording events: [SecurityEventRecord])
        async throws(StorageError)
        -> Bool
    /// Replaces the settings an admin edits (name, redirect URIs, post-logout redirect URIs, token lifetimes) of the
    /// client with `client`'s identifier by `client`'s, with `events` when the client exists (one unit); returns whether
    /// it exists. Its other columns (its secret, branding, kind) stay as they are.
    @discardableResult
    func updateClientSettings(_ client: ClientRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    /// Replaces the secret hash of the confidential client `id` by `secretHash`, with `events` when it is a
    /// confidential client (one unit); returns whether it is (a public client has no secret, and is left alone).
    @discardableResult
    func replaceClientSecret(id: String, secretHash: Data, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
}

extension ClientStore {
    /// Registers `client` unless a client with its identifier exists, recording no event; returns whether it was
    /// inserted.
    @discardableResult
    public func insertClientIfAbsent(_ client: ClientRecord) async throws(StorageError) -> Bool {
        try await insertClientIfAbsent(client, recording: [])
    }

    /// Removes the client, recording no event; returns whether it existed.
    @discardableResult
    public func deleteClient(id: String) async throws(StorageError) -> Bool {
        try await deleteClient(id: id, recording: [])
    }

    /// Replaces the client's branding, recording no event; returns whether the client exists.
    @discardableResult
    public func updateClientBranding(id: String, branding: ClientBranding?) async throws(StorageError) -> Bool {
        try await updateClientBranding(id: id, branding: branding, recording: [])
    }
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
    public var grantTypes: [GrantType]
    /// A first-party client skips the consent page.
    public var isFirstParty: Bool
    /// The algorithm its ID tokens are signed with.
    public var idTokenSignedResponseAlg: SigningAlgorithm
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
    /// The provider's own app that may approve other apps' sign-ins for its signed-in user (app-to-app,
    /// `POST /authorize/app2app`); only a first-party native client is one.
    public var isAppToAppHost: Bool
    /// Whether its tokens must be DPoP-bound (`dpop_bound_access_tokens`, RFC 9449 §5.2): a token request without a
    /// DPoP proof is refused.
    public var requiresDPoP: Bool
    /// The `acr` every sign-in for it must reach (`phr` or `mfa`), whatever its requests ask; `nil`: what they ask.
    public var requiredACR: String?

    /// Creates a client record.
    public init(
        id: String,
        name: String,
        kind: Kind,
        secretHash: Data? = nil,
        isNative: Bool = false,
        redirectURIs: [String],
        postLogoutRedirectURIs: [String] = [],
        grantTypes: [GrantType] = [.authorizationCode, .refreshToken],
        isFirstParty: Bool = false,
        idTokenSignedResponseAlg: SigningAlgorithm = .es256,
        accessTokenLifetime: TimeInterval? = nil,
        refreshTokenLifetime: TimeInterval? = nil,
        allowsNoPKCE: Bool = false,
        branding: ClientBranding? = nil,
        createdAt: Date,
        emailLinkURI: String? = nil,
        isAppToAppHost: Bool = false,
        requiresDPoP: Bool = false,
        requiredACR: String? = nil
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
        self.isAppToAppHost = isAppToAppHost
        self.requiresDPoP = requiresDPoP
        self.requiredACR = requiredACR
    }
}

extension ClientRecord {
    /// Whether its authorization requests may come without PKCE: only a confidential client registered with
    /// ``allowsNoPKCE``; every other client must send an S256 challenge (OAuth 2.1, RFC 9700 §2.1.1).
    package var mayLeaveOutPKCE: Bool { kind == .confidential && allowsNoPKCE }
}
