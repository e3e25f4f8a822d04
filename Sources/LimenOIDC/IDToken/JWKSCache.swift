import Foundation
import JWTKit
import LimenWire
import Logging

/// A provider's signing keys, fetched from its `jwks_uri` and kept for a while.
///
/// Concurrent callers that need a fetch share one request. A forced refresh (used when a token names an unknown
/// key, as after a key rotation) is honoured at most once per ``minimumForcedRefreshInterval``, so tokens with
/// made-up key IDs cannot make Limen hammer the provider.
///
/// ```swift
/// let keys = JWKSCache(jwksURI: metadata.jwksURI!, transport: transport)
/// let validator = IDTokenValidator(issuer: metadata.issuer, clientID: "app", keys: keys)
/// ```
public actor JWKSCache {
    /// Where the key set is published.
    public nonisolated let jwksURI: URL
    /// How long a fetched key set is used before it is fetched again.
    public nonisolated let timeToLive: TimeInterval
    /// The shortest time between two forced refreshes.
    public nonisolated let minimumForcedRefreshInterval: TimeInterval

    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    private let logger = Logger(label: "limen.idtoken")
    private var cached: (keySet: JSONWebKeySet, fetchedAt: Date)?
    private var lastForcedRefresh: Date?
    /// Verifiers already selected and loaded into jwt-kit for the current key set, by the token's algorithm and
    /// `kid`, so that each validation after the first only looks one up; emptied with every new key set.
    private var selectedVerifiers: [VerifierSlot: any JWTAlgorithm] = [:]
    /// Counts the key sets stored, so that a verifier loaded while a newer key set arrived is not cached for it.
    private var keySetGeneration = 0
    private let fetches = SingleFlight<JSONWebKeySet, IDTokenValidationError>()

    /// Creates a cache; nothing is fetched until keys are first asked for.
    public init(
        jwksURI: URL,
        transport: any HTTPTransport,
        timeToLive: TimeInterval = 3600,
        minimumForcedRefreshInterval: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.jwksURI = jwksURI
        self.transport = transport
        self.timeToLive = timeToLive
        self.minimumForcedRefreshInterval = minimumForcedRefreshInterval
        self.now = now
    }

    /// The key set: the cached one while it is younger than ``timeToLive``, otherwise a fresh one.
    ///
    /// With `forceRefresh`, the key set is fetched again even if the cached one is fresh, unless a forced refresh
    /// already happened within ``minimumForcedRefreshInterval``.
    public func keySet(forceRefresh: Bool = false) async throws(IDTokenValidationError) -> JSONWebKeySet {
        let time = now()
        if let cached, !needsFetch(cached.fetchedAt, forceRefresh: forceRefresh, at: time) {
            return cached.keySet
        }
        if forceRefresh {
            lastForcedRefresh = time
            logger.debug("Refreshing the key set for an unknown key", metadata: ["jwks_uri": "\(jwksURI)"])
        }
        return try await fetchAndKeep()
    }

    /// Fetches the key set again when none is cached or the cached one is at least `age` old, so that a task
    /// refreshing ahead of ``timeToLive`` (a server's, in the background) keeps validations from waiting on the
    /// network. It does not count as a forced refresh.
    ///
    /// ```swift
    /// try await keys.refresh(ifOlderThan: keys.timeToLive - 600)   // ten minutes before the key set expires
    /// ```
    public func refresh(ifOlderThan age: TimeInterval) async throws(IDTokenValidationError) {
        if let cached, now().timeIntervalSince(cached.fetchedAt) < age { return }
        _ = try await fetchAndKeep()
    }

    /// Fetches the key set (one request for concurrent callers) and keeps it.
    private func fetchAndKeep() async throws(IDTokenValidationError) -> JSONWebKeySet {
        let request = HTTPRequest(url: jwksURI, headers: ["Accept": "application/json"])
        let keySet = try await fetches.run { [transport, now] () async throws(IDTokenValidationError) in
            try await Self.fetch(request, through: transport, now: now)
        }
        cached = (keySet, now())
        selectedVerifiers = [:]
        keySetGeneration += 1
        return keySet
    }

    private func needsFetch(_ fetchedAt: Date, forceRefresh: Bool, at time: Date) -> Bool {
        if time.timeIntervalSince(fetchedAt) >= timeToLive { return true }
        guard forceRefresh else { return false }
        guard let lastForcedRefresh else { return true }
        return time.timeIntervalSince(lastForcedRefresh) >= minimumForcedRefreshInterval
    }

    private static func fetch(
        _ request: HTTPRequest,
        through transport: any HTTPTransport,
        now: @Sendable () -> Date
    ) async throws(IDTokenValidationError) -> JSONWebKeySet {
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw .jwksUnavailable(error)
        }
        switch response.status {
        case 200:
            return try JSONWebKeySet(json: response.body)
        case 429, 503:
            throw .jwksUnavailable(.rateLimited(retryAfter: response.retryAfter(now: now())))
        default:
            throw .jwksUnavailable(.httpStatus(response.status))
        }
    }

    /// Verifies a compact JWS signed with one of these keys and returns its payload's members and its algorithm.
    ///
    /// The steps are ``IDTokenValidator``'s first three: the header's `alg` must be in `allowedAlgorithms` (so `none`
    /// and HMAC never get further), the key is chosen with one forced refresh on an unknown key, and jwt-kit checks
    /// the signature. No claim is looked at: callers that accept tokens other than this client's ID tokens (a server
    /// trusting another issuer's tokens, say) check the claims themselves.
    ///
    /// ```swift
    /// let (claims, algorithm) = try await keys.verifiedPayload(of: token, allowedAlgorithms: [.es256, .rs256])
    /// ```
    public nonisolated func verifiedPayload(
        of compact: String,
        allowedAlgorithms: Set<JWSAlgorithm>
    ) async throws(IDTokenValidationError) -> (claims: [String: JSONValue], algorithm: JWSAlgorithm) {
        let (jws, algorithm) = try JWSVerifier.parse(compact, allowedAlgorithms: allowedAlgorithms)
        try JWSVerifier.checkSignature(of: jws, with: try await verifier(for: algorithm, kid: jws.keyID))
        guard let members = JSONObject.decode(jws.payload) else { throw .malformed("the payload is not a JSON object") }
        return (members, algorithm)
    }

    /// The verifier for a token's `alg` and `kid`: the key is chosen as ``IDTokenValidator`` describes, with one
    /// forced refresh of the key set when no key fits (key rotation).
    ///
    /// The chosen key is loaded once per key set and kept under (`alg`, `kid`), `kid` nil included: that entry exists
    /// only after the selection found exactly one fitting key in the same key set, so the rules are not bypassed.
    func verifier(for algorithm: JWSAlgorithm, kid: String?) async throws(IDTokenValidationError) -> any JWTAlgorithm {
        let keySet = try await keySet()
        let slot = VerifierSlot(algorithm: algorithm, kid: kid)
        if let selected = selectedVerifiers[slot] { return selected }
        let key: JSONWebKey
        do {
            key = try KeySelection.key(for: algorithm, kid: kid, in: keySet)
        } catch .keyNotFound {
            key = try KeySelection.key(for: algorithm, kid: kid, in: try await self.keySet(forceRefresh: true))
        }
        let generation = keySetGeneration
        let loaded = try await JWSVerifier.loadVerifier(key: key, algorithm: algorithm)
        if generation == keySetGeneration {
            selectedVerifiers[slot] = loaded
        }
        return loaded
    }
}

/// Where a selected verifier is kept: the token header's algorithm and key ID (nil when the header names none).
private struct VerifierSlot: Hashable {
    let algorithm: JWSAlgorithm
    let kid: String?
}
