import Foundation
import LimenServerWire

/// What redeeming an authorization code found.
public enum AuthorizationCodeRedemption: Sendable, Equatable {
    /// The code was unused and unexpired; it is now marked used and tied to the grant being made.
    case redeemed(AuthorizationCodeRecord)
    /// The code had been redeemed before: the grant it produced has been revoked (RFC 6749 §4.1.2).
    case replayed
    /// No such code for this client, or it expired.
    case unknown
}

/// One authorization: what a user granted a client, made when a code is redeemed. Its refresh tokens and access
/// tokens live as long as it does, and revoking it stops all of them.
public struct GrantRecord: Sendable, Equatable {
    /// A random identifier, carried by the access tokens (`grant_id`) so revocation reaches them.
    public var id: String
    /// The client the grant was made to.
    public var clientID: String
    /// The user who granted it.
    public var subject: String
    /// The granted scope; a refresh may narrow it, never widen it.
    public var scope: String
    /// When the user authenticated.
    public var authTime: Date
    /// The authorization request's `nonce`.
    public var nonce: String?
    /// When the grant was made.
    public var createdAt: Date
    /// When its last token expires; the sweeper deletes it afterwards.
    public var expiresAt: Date
    /// When it was revoked, if it was.
    public var revokedAt: Date?
    /// SHA-256 of the browser session it lives with (Keycloak's model): a grant made without `offline_access` from
    /// a browser sign-in is deleted with that session (sign-out, expiry, password change). `nil`: an offline grant.
    public var browserSessionHash: Data?
    /// The thumbprint of the DPoP key its refresh tokens are bound to (RFC 9449 §5): a public client that sent a DPoP
    /// proof when the grant was made must prove the same key at every refresh. `nil`: its refresh tokens are unbound.
    public var proofKey: String?
    /// How the user authenticated (the ID token's `amr`).
    public var methods: AuthenticationMethods

    /// Creates a grant record.
    public init(
        id: String,
        clientID: String,
        subject: String,
        scope: String,
        authTime: Date,
        nonce: String? = nil,
        createdAt: Date,
        expiresAt: Date,
        revokedAt: Date? = nil,
        browserSessionHash: Data? = nil,
        proofKey: String? = nil,
        methods: AuthenticationMethods = .init()
    ) {
        self.id = id
        self.clientID = clientID
        self.subject = subject
        self.scope = scope
        self.authTime = authTime
        self.nonce = nonce
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
        self.browserSessionHash = browserSessionHash
        self.proofKey = proofKey
        self.methods = methods
    }

    /// Whether it may have refresh tokens: with `offline_access` (they outlive any browser session), or bound to the
    /// browser session that signed in (they end with it). A grant with neither (a device authorization without
    /// `offline_access`) has access tokens only.
    public var mayRefresh: Bool {
        browserSessionHash != nil || Scope(scope).contains(Scope.offlineAccess)
    }

    /// Whether tokens of this grant are honoured at `date`: not revoked and not expired.
    public func isActive(at date: Date) -> Bool {
        revokedAt == nil && date < expiresAt
    }
}

/// The grants part of the ``Store``: authorization codes, their redemption with replay detection, grants, and revoked access tokens.
///
/// Each method is atomic on its own, and their order makes redemption safe without a transaction: a replay either
/// revokes the grant already stored or stops it from being stored (``insertGrant(_:redeemedCodeHash:)``).
public protocol GrantStore: Sendable {
    /// Stores a new authorization code (by its hash) and `events` with it, in one unit (the sign-in it ends).
    func insertAuthorizationCode(_ code: AuthorizationCodeRecord, recording events: [SecurityEventRecord])
        async throws(StorageError)
    /// Deletes codes that expired before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredAuthorizationCodes(before date: Date) async throws(StorageError) -> Int
    /// Marks the code with this hash, issued to `clientID`, used by the grant `grantID` if it is unused and unexpired
    /// at `now`. Such a code used before is marked replayed and the grant it produced is revoked at `now`. A code
    /// issued to another client is ``AuthorizationCodeRedemption/unknown`` and left as it is: only its own client's
    /// replay revokes its grant (a public client's ID is no proof, but another client's request proves nothing at all).
    func redeemAuthorizationCode(
        hash: Data,
        clientID: String,
        grantID: String,
        now: Date
    ) async throws(StorageError) -> AuthorizationCodeRedemption
    /// Stores the grant made by redeeming the code with this hash; `false` (nothing stored) when the code has been
    /// replayed since, or was not redeemed for this grant, or the browser session it is bound to has ended, or its user
    /// is disabled.
    func insertGrant(_ grant: GrantRecord, redeemedCodeHash: Data) async throws(StorageError) -> Bool
    /// Stores a grant made without an authorization code: a redeemed device code's, a token exchange's; `events` are
    /// written with it, in one unit (the sign-in it is). `false` (nothing stored or recorded) when its user is disabled.
    @discardableResult
    func insertGrant(_ grant: GrantRecord, recording events: [SecurityEventRecord]) async throws(StorageError) -> Bool
    /// The grant with this identifier, if it has not been swept.
    func grant(id: String) async throws(StorageError) -> GrantRecord?
    /// Moves the grant's expiry to `date` if that is later (its newest token lives until then).
    func extendGrant(id: String, until date: Date) async throws(StorageError)
    /// Binds `subject`'s grants bound to the browser session `old` to the session `new` instead: the user signed in
    /// again in the same browser, which replaced the session, but did not sign out.
    func moveSessionGrants(subject: String, from old: Data, to new: Data) async throws(StorageError)
    /// Revokes the grant at `date`; returns whether it existed and was not revoked already. `events` are written with
    /// the revocation, in one unit, when it applies.
    @discardableResult
    func revokeGrant(id: String, at date: Date, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    /// Revokes every grant of `subject` not revoked yet at `date` (the user's sessions end everywhere); returns how many.
    @discardableResult
    func revokeGrants(subject: String, at date: Date) async throws(StorageError) -> Int
    /// Deletes grants that expired before `date`, with their refresh tokens; returns how many grants were removed.
    @discardableResult
    func deleteExpiredGrants(before date: Date) async throws(StorageError) -> Int

    /// Records that the access token `jti` is revoked; kept until `expiresAt`, when the token expires anyway.
    func revokeAccessToken(jti: String, expiresAt: Date) async throws(StorageError)
    /// Whether the access token `jti` has been revoked.
    func isAccessTokenRevoked(jti: String) async throws(StorageError) -> Bool
    /// Forgets revocations of access tokens that expired before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredAccessTokenRevocations(before date: Date) async throws(StorageError) -> Int
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
    /// How the user authenticated (the ID token's `amr`).
    public var methods: AuthenticationMethods
    /// The request's `dpop_jkt` (RFC 9449 §10): the code is redeemed only with a DPoP proof by this key.
    public var proofKey: String?

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
        browserSessionHash: Data? = nil,
        methods: AuthenticationMethods = .init(),
        proofKey: String? = nil
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
        self.methods = methods
        self.proofKey = proofKey
    }
}
