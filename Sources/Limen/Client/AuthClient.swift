import Foundation
import LimenOIDC
import Logging
import Synchronization

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
    /// The configuration this client was created with.
    public nonisolated let configuration: Configuration
    let sessions: SessionStore
    let discovery: ProviderDiscovery
    let stateStore = StateStore()
    let events = EventBus()
    let refreshes = SingleFlight<String?>()
    var logger: Logger { configuration.logger }
    var tokens: TokenSet? {
        didSet { freshToken.withLock { $0 = tokens.map(CachedAccessToken.init) } }
    }
    /// The current access token, readable without entering the actor: the fast path of `validAccessToken()`.
    nonisolated let freshToken = Mutex<CachedAccessToken?>(nil)
    /// Bumped by every sign-in and sign-out, so that a refresh started before one is discarded after it.
    var generation = 0
    private var restoreTask: Task<LimenError?, Never>?
    private var jwksCache: JWKSCache?

    /// Creates a client. Call ``restore()`` (or any token call, which restores first) to read the stored session.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.sessions = SessionStore(store: configuration.store, namespace: configuration.namespace)
        self.discovery = ProviderDiscovery(
            issuer: configuration.issuer,
            transport: configuration.transport,
            now: configuration.now
        )
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
    /// through the returned error; it never crashes.
    @discardableResult
    public func restore() async -> LimenError? {
        if let restoreTask { return await restoreTask.value }
        let task = Task { await self.loadStoredSession() }
        restoreTask = task
        return await task.value
    }

    private func loadStoredSession() async -> LimenError? {
        let hadSignedIn = await sessions.hasPreviouslySignedIn()
        do {
            let stored = try await sessions.load()
            tokens = stored
            stateStore.update { $0 = stored.map(AuthState.signedIn) ?? .ended(.signedOut, hadSignedIn: hadSignedIn) }
            return nil
        } catch {
            logger.warning("stored session unreadable; treating as signed out", metadata: ["code": "\(error.code)"])
            tokens = nil
            stateStore.update { $0 = .ended(.signedOut, hadSignedIn: hadSignedIn) }
            return .storage(error)
        }
    }

    /// Waits for ``restore()`` if it has not run yet.
    func ensureRestored() async {
        await restore()
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
            transport: configuration.transport
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
        stateStore.update { $0 = .signedIn(next) }
    }

    /// Forgets the session locally (storage and state), bumping the generation.
    func endSession(phase: AuthState.Phase) async {
        generation += 1
        let hadSignedIn = tokens != nil || state.auth.hasPreviouslySignedIn
        tokens = nil
        do {
            try await sessions.clear()
        } catch {
            logger.error("could not clear the stored session", metadata: ["code": "\(error.code)"])
        }
        stateStore.update { $0 = .ended(phase, hadSignedIn: hadSignedIn) }
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
