import Foundation

/// Authorization requests waiting for the user: accepted by `/authorize`, kept server-side while the sign-in, sign-up
/// and consent pages are shown, so that the browser carries only an opaque random identifier.
public protocol PendingAuthorizationStore: Sendable {
    /// Stores a new pending request (by the hash of its identifier).
    func insertPendingAuthorization(_ request: PendingAuthorizationRecord) async throws(StorageError)
    /// The pending request with this identifier hash, if it has not expired at `now`.
    func pendingAuthorization(idHash: Data, now: Date) async throws(StorageError) -> PendingAuthorizationRecord?
    /// Removes and returns the pending request if it has not expired at `now`: a request completes once, even when
    /// two submissions race.
    func consumePendingAuthorization(idHash: Data, now: Date) async throws(StorageError) -> PendingAuthorizationRecord?
    /// Records on the pending request that the browser session `sessionHash` signed in for it, so the request's
    /// forced sign-in (`prompt=login`, `max_age`, `id_token_hint`) counts as done for that session only; `false` when
    /// the request is gone or expired at `now`.
    @discardableResult
    func recordPendingAuthorizationSignIn(idHash: Data, sessionHash: Data, now: Date) async throws(StorageError)
        -> Bool
    /// Deletes pending requests that expired before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredPendingAuthorizations(before date: Date) async throws(StorageError) -> Int
}

/// A validated authorization request (OpenID Connect Core §3.1.2.1) waiting for sign-in or consent.
public struct PendingAuthorizationRecord: Sendable, Equatable {
    /// SHA-256 of the random identifier the pages carry.
    public var idHash: Data
    /// The requesting client.
    public var clientID: String
    /// The verified redirect URI.
    public var redirectURI: String
    /// The requested scopes, space-separated, each known to the server.
    public var scope: String
    /// The client's `state`, returned with the response.
    public var state: String?
    /// The client's `nonce`, put in the ID token.
    public var nonce: String?
    /// The PKCE challenge (S256).
    public var codeChallenge: String?
    /// The `prompt` values, space-separated (`login`, `consent`, `select_account`; `none` never waits).
    public var prompt: String?
    /// The `max_age` in seconds: an older sign-in must be repeated.
    public var maxAge: Int?
    /// The `login_hint`, used to prefill the email field.
    public var loginHint: String?
    /// The subject of a verified `id_token_hint` (never the token itself).
    public var hintedSubject: String?
    /// The `ui_locales`, for the pages' language.
    public var uiLocales: String?
    /// SHA-256 of the device code when this is the confirmation of a device authorization (RFC 8628 §3.3) rather
    /// than an `/authorize` request: it completes by deciding that authorization, not by a redirect.
    public var deviceCodeHash: Data?
    /// HMAC of the secret of the browser that started the request (under a key derived from the master key): the
    /// request continues only in that browser.
    public var browserBinding: Data?
    /// SHA-256 of the browser session whose sign-in was made for this request (see
    /// ``PendingAuthorizationStore/recordPendingAuthorizationSignIn(idHash:sessionHash:now:)``).
    public var signInSessionHash: Data?
    /// When `/authorize` accepted the request.
    public var createdAt: Date
    /// When the request is no longer honoured.
    public var expiresAt: Date
    /// The `acr_values` this server knows, space-separated: the sign-in must reach one of them.
    public var acrValues: String?
    /// The `dpop_jkt` (RFC 9449 §10): its code is redeemed only with a DPoP proof by the key of this thumbprint.
    public var proofKey: String?

    /// Creates a pending request record.
    public init(
        idHash: Data,
        clientID: String,
        redirectURI: String,
        scope: String,
        state: String? = nil,
        nonce: String? = nil,
        codeChallenge: String? = nil,
        prompt: String? = nil,
        maxAge: Int? = nil,
        loginHint: String? = nil,
        hintedSubject: String? = nil,
        uiLocales: String? = nil,
        deviceCodeHash: Data? = nil,
        browserBinding: Data? = nil,
        signInSessionHash: Data? = nil,
        createdAt: Date,
        expiresAt: Date,
        acrValues: String? = nil,
        proofKey: String? = nil
    ) {
        self.idHash = idHash
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scope = scope
        self.state = state
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.prompt = prompt
        self.maxAge = maxAge
        self.loginHint = loginHint
        self.hintedSubject = hintedSubject
        self.uiLocales = uiLocales
        self.deviceCodeHash = deviceCodeHash
        self.browserBinding = browserBinding
        self.signInSessionHash = signInSessionHash
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.acrValues = acrValues
        self.proofKey = proofKey
    }
}
