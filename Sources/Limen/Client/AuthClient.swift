import Foundation
import LimenOIDC
import Logging

/// A signed-in session with one OpenID provider: sign-in, token refresh, state, events and sign-out.
///
/// Create one per configuration; several may coexist (give them different storage namespaces). Nothing here is
/// global: ``Limen`` is only a convenience over a shared instance.
///
/// ```swift
/// let client = AuthClient(configuration: configuration)
/// await client.restore()
/// if let token = try await client.validAccessToken() { … }
/// ```
public actor AuthClient {
    /// The configuration this client was created with, its ``Configuration/transport`` enforcing
    /// ``Configuration/pinning`` when a host is pinned.
    public nonisolated let configuration: Configuration
    let sessions: SessionStore
    /// The users' field-encryption keys (see ``CurrentUser``).
    let keyring: FieldKeyring
    /// The users' cached profiles (see ``CurrentUser/get()``).
    let profileCache: ProfileCache
    /// The app schema and the last profile snapshot, in memory.
    let profileMemory = ProfileMemory()
    let discovery: ProviderDiscovery
    let stateStore = StateStore()
    let events: EventBus
    /// The refresh of this client's session, one at a time across the clients (here and in other processes) sharing
    /// its store.
    let refresher: Refresher
    /// The listener of ``Configuration/sessionChanges``.
    let sessionChangeListening = SessionChangeListening()
    /// The flow steps waiting for a code sent by email, for ``handle(url:)`` and ``signIn(email:code:)``.
    let emailCodeSteps = EmailCodeSteps()
    /// The sign-ins waiting for a redirect that ``handle(url:)`` receives (``AppToAppUserAgent``).
    nonisolated let awaitedRedirects = AwaitedRedirects()
    var logger: Logger { configuration.logger }
    var tokens: TokenSet? {
        didSet { publishCachedToken() }
    }
    /// Whether the store is behind memory: it refused a refreshed ``tokens`` (whose refresh token is then the only one
    /// the provider still honours), or refused to forget a session that ended (``tokens`` is `nil`).
    var hasUnsavedSession = false {
        didSet { publishCachedToken() }
    }
    /// The current access token, readable without entering the actor: the fast path of `validAccessToken()`.
    nonisolated let freshToken = LockedValue<CachedAccessToken?>(nil)
    /// Bumped by every sign-in and sign-out, so that a refresh started before one is discarded after it.
    var generation = 0 {
        didSet { lastUserInfo = nil }
    }
    /// The UserInfo last fetched in this session, for ``CurrentUser/userinfo(cache:)``; forgotten when the session ends
    /// (each sign-in and sign-out bumps ``generation``).
    var lastUserInfo: UserInfo?
    private var restoreTask: Task<LimenError?, Never>?
    private var jwksCache: JWKSCache?
    /// The provider's clock, learnt from its answers: ``configuration``'s `now`.
    nonisolated let serverClock: ServerClock
    /// The DPoP key of the sessions, when ``Configuration/dpop`` is set.
    let dpopKeys: DPoPKeyStore?
    /// The `DPoP-Nonce` each server last sent.
    let dpopNonces = DPoPNonceCache()

    /// Creates a client. Call ``restore()`` (or any token call, which restores first) to read the stored session.
    ///
    /// The client's ``configuration`` tells the provider's time, not the device's: its `now` adds the offset between
    /// the two, measured from the `Date` of the issuer's answers (see ``Configuration/now``).
    ///
    /// When ``Configuration/pinning`` pins a host, every request goes through the transport's pinned form, each
    /// mismatch emitting ``AuthEvent/pinningFailed(_:)``; a transport that cannot pin fails the requests to pinned hosts
    /// with ``ConfigurationError/pinningUnavailable(host:)`` rather than sending them unpinned.
    public init(configuration: Configuration) {
        let events = EventBus()
        var configuration = configuration
        let serverClock = ServerClock(issuer: configuration.issuer, deviceNow: configuration.now)
        configuration.transport = ServerClockTransport(
            base: configuration.transportEnforcingPinning { events.emit(.pinningFailed($0)) }, clock: serverClock)
        configuration.now = { serverClock.now() }
        self.serverClock = serverClock
        self.dpopKeys = configuration.dpop.map {
            DPoPKeyStore(
                source: $0, store: configuration.store, namespace: configuration.namespace,
                logger: configuration.logger)
        }
        self.events = events
        self.configuration = configuration
        (configuration.store as? any FieldKeyRetaining)?.retainFieldKeys(configuration.encryptionKeyOnSignOut)
        self.sessions = SessionStore(store: configuration.store, namespace: configuration.namespace)
        self.keyring = FieldKeyring(sessions: sessions, namespace: configuration.namespace)
        self.refresher = Refresher(
            sessions: sessions, events: events, configuration: configuration, instanceID: UUID().uuidString)
        self.profileCache = ProfileCache(store: configuration.store, namespace: configuration.namespace)
        self.discovery = ProviderDiscovery(
            issuer: configuration.issuer,
            transport: configuration.transport,
            now: configuration.now
        )
        listenForSessionChanges()
    }

    /// The current state snapshot.
    public nonisolated var state: AuthState { stateStore.state }

    /// The current state, then every change.
    public nonisolated func stateUpdates() -> AsyncStream<AuthState> { stateStore.updates() }

    /// The current value of a projection of the state, then each time it changes.
    ///
    /// ```swift
    /// for await isAuthenticated in client.subscribe({ $0.auth.isAuthenticated }) { … }
    /// ```
    public nonisolated func subscribe<Projection: Equatable & Sendable>(
        _ projection: @escaping @Sendable (AuthState) -> Projection
    ) -> AsyncStream<Projection> {
        stateStore.subscribe(projection)
    }

    /// Registers a handler called, in order, for every ``AuthEvent``; returns a token for ``removeEventHandler(_:)``.
    @discardableResult
    public nonisolated func addEventHandler(_ handler: @escaping @Sendable (AuthEvent) -> Void) -> UUID {
        events.addHandler(handler)
    }

    /// Removes an event handler.
    public nonisolated func removeEventHandler(_ id: UUID) {
        events.removeHandler(id)
    }

    /// Every event from now on.
    public nonisolated func eventStream() -> AsyncStream<AuthEvent> { events.stream() }

    /// Reads the stored session; the phase moves from `restoring` to `signedIn` or `signedOut`.
    ///
    /// A stored session that cannot be read (tampered, truncated, wrong key) is treated as signed out and reported
    /// through the returned error; it never crashes. A retryable storage failure (the Keychain refusing a read while
    /// the device is locked, ``StorageError/isRetryable``) is not a sign-out: the phase stays `restoring`, the error
    /// is returned, and the next call (or ``resume()``) reads the store again.
    @discardableResult
    public func restore() async -> LimenError? {
        if let restoreTask { return await restoreTask.value }
        let task = Task { await self.loadStoredSession() }
        restoreTask = task
        let error = await task.value
        if let error, error.isRetryable, restoreTask == task {
            restoreTask = nil
        }
        return error
    }

    /// Retries what a passing storage failure left pending: a ``restore()`` that could not read the store, a refreshed
    /// token set that could not be saved, an ended session the store could not forget. Call it when the app becomes
    /// active or protected data becomes available (after the device is unlocked); calling it when nothing is pending
    /// costs nothing. On iOS and visionOS, LimenApple's `resumeWhenActive()` does this for you.
    ///
    /// ```swift
    /// .onChange(of: scenePhase) { _, phase in
    ///     if phase == .active { Task { await client.resume() } }
    /// }
    /// ```
    /// - Returns: The storage error that still holds something back, or `nil` when nothing is pending any more.
    @discardableResult
    public func resume() async -> LimenError? {
        if let error = await restore(), error.isRetryable { return error }
        return await saveUnsavedSession()
    }

    private func loadStoredSession() async -> LimenError? {
        let hadSignedIn = await sessions.hasPreviouslySignedIn()
        do {
            let stored = try await sessions.load()
            tokens = stored
            stateStore.update { $0 = stored.map(AuthState.signedIn) ?? .ended(.signedOut, hadSignedIn: hadSignedIn) }
            return nil
        } catch  where error.isRetryable {
            logger.notice("stored session not readable yet; still restoring", metadata: ["code": "\(error.code)"])
            return .storage(error)
        } catch {
            logger.warning("stored session unreadable; treating as signed out", metadata: ["code": "\(error.code)"])
            tokens = nil
            stateStore.update { $0 = .ended(.signedOut, hadSignedIn: hadSignedIn) }
            return .storage(error)
        }
    }

    /// Whether ``restore()`` has read the store (or a session ended, which counts as restored).
    var hasRestored: Bool { restoreTask != nil }

    /// Waits for ``restore()`` if it has not run yet; throws the retryable storage error that keeps it `restoring`.
    func ensureRestored() async throws(LimenError) {
        if let error = await restore(), error.isRetryable { throw error }
    }

    /// The provider metadata, mapped into ``LimenError``.
    func metadata() async throws(LimenError) -> ProviderMetadata {
        do {
            return try await discovery.metadata()
        } catch {
            throw LimenError(error)
        }
    }

    /// The token client for this configuration.
    func tokenClient() async throws(LimenError) -> TokenClient {
        TokenClient(
            metadata: try await metadata(),
            authentication: configuration.clientAuthentication,
            transport: configuration.transport,
            dpop: try await dpopBinding()
        )
    }

    /// The ID token validator for this configuration (sharing one JWKS cache).
    func idTokenValidator() async throws(LimenError) -> IDTokenValidator {
        let metadata = try await metadata()
        guard let jwksURI = metadata.jwksURI else {
            throw .protocolViolation(.discovery(.invalidDocument("missing jwks_uri")))
        }
        let cache = jwksCache ?? JWKSCache(jwksURI: jwksURI, transport: configuration.transport, now: configuration.now)
        jwksCache = cache
        return IDTokenValidator(
            issuer: metadata.issuer,
            clientID: configuration.clientID,
            keys: cache,
            policy: IDTokenValidationPolicy(leeway: configuration.leeway),
            now: configuration.now
        )
    }

    /// Validates an ID token against the provider's keys and this client's expectations.
    func validateIDToken(
        _ idToken: String,
        nonce: String?,
        maxAge: TimeInterval?,
        accessToken: String
    ) async throws(LimenError) -> IDTokenClaims {
        let validator = try await idTokenValidator()
        do {
            return try await validator.validate(idToken, nonce: nonce, maxAge: maxAge, accessToken: accessToken)
        } catch {
            throw .idToken(error)
        }
    }

    /// Makes `next` the session: persisted first, then published.
    func adopt(_ next: TokenSet) async throws(LimenError) {
        do {
            try await sessions.save(next)
        } catch {
            throw .storage(error)
        }
        tokens = next
        hasUnsavedSession = false
        stateStore.update { $0 = .signedIn(next, after: $0) }
        announceSessionChange()
    }

    /// Makes a refreshed set the session: published at once, then persisted. The provider has already spent the
    /// previous refresh token, so when the save fails the set stays in memory, marked unsaved, and every later access
    /// saves it again (see ``saveUnsavedSession()``) until the store accepts it.
    func adoptRefreshed(_ next: TokenSet) async {
        tokens = next
        hasUnsavedSession = true
        stateStore.update { $0 = .signedIn(next, after: $0) }
        await writeUnsavedSession()
    }

    /// Writes an unsaved session under the store's cross-process lock; returns the error that kept it unsaved.
    @discardableResult
    func saveUnsavedSession() async -> LimenError? {
        guard hasUnsavedSession else { return nil }
        do {
            return try await sessions.exclusively { () async throws(LimenError) in await self.writeUnsavedSession() }
        } catch {
            return error
        }
    }

    /// Writes an unsaved session: saves ``tokens``, or clears the stored session when there are none. Callers that
    /// hold the store's cross-process lock call it directly.
    @discardableResult
    func writeUnsavedSession() async -> LimenError? {
        guard hasUnsavedSession else { return nil }
        let unsaved = tokens
        do {
            if let unsaved {
                try await sessions.save(unsaved)
            } else {
                try await sessions.clear()
            }
        } catch {
            logger.warning(
                unsaved == nil ? "ended session not cleared from the store" : "refreshed session not saved",
                metadata: ["code": "\(error.code)"])
            return .storage(error)
        }
        if tokens == unsaved { hasUnsavedSession = false }
        announceSessionChange()
        return nil
    }

    /// Forgets the session locally (storage and state), bumping the generation. A store that refuses to forget it is
    /// asked again on the next access (see ``saveUnsavedSession()``).
    ///
    /// The restore counts as done from here on: a store that could not be read before is not read again, so a session
    /// that the store still holds cannot come back in this process.
    func endSession(phase: AuthState.Phase) async {
        generation += 1
        let hadSignedIn = tokens != nil || state.auth.hasPreviouslySignedIn
        tokens = nil
        hasUnsavedSession = true
        restoreTask = Task { nil }
        await writeUnsavedSession()
        await dpopKeys?.discard()
        stateStore.update { $0 = .ended(phase, hadSignedIn: hadSignedIn) }
    }

    /// Copies the access token out of the actor for the fast path of `validAccessToken()`; an unsaved set is not
    /// copied, so the next access comes in and saves it.
    private func publishCachedToken() {
        let cached = hasUnsavedSession ? nil : tokens.map(CachedAccessToken.init)
        freshToken.withLock { $0 = cached }
    }
}

/// The access token and its expiry, copied out of the actor for lock-protected reads.
struct CachedAccessToken: Sendable {
    let accessToken: String
    let expiresAt: Date?

    init(_ tokens: TokenSet) {
        accessToken = tokens.accessToken
        expiresAt = tokens.expiresAt
    }

    /// Whether more than `margin` seconds remain at `now` (a token without expiry is always fresh).
    func isFresh(at now: Date, margin: TimeInterval) -> Bool {
        expiresAt.map { $0.timeIntervalSince(now) > margin } ?? true
    }
}
