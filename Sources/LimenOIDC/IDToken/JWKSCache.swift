import Foundation
import JWTKit
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
    /// Keys already loaded into jwt-kit, so that each validation only verifies; emptied with every new key set.
    private var verifiers: [VerifierID: any JWTAlgorithm] = [:]
    private let fetches = SingleFlight<Result<JSONWebKeySet, IDTokenValidationError>>()

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
        let request = HTTPRequest(url: jwksURI, headers: ["Accept": "application/json"])
        let result: Result<JSONWebKeySet, IDTokenValidationError>
        do {
            result = try await fetches.run { [transport, now] in await Self.fetch(request, through: transport, now: now)
            }
        } catch {
            throw .jwksUnavailable(.cancelled)
        }
        if case .success(let keySet) = result {
            cached = (keySet, now())
            verifiers = [:]
        }
        return try result.get()
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
    ) async -> Result<JSONWebKeySet, IDTokenValidationError> {
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            return .failure(.jwksUnavailable(error))
        }
        switch response.status {
        case 200:
            return Result { () throws(IDTokenValidationError) in try JSONWebKeySet(json: response.body) }
        case 429, 503:
            return .failure(.jwksUnavailable(.rateLimited(retryAfter: response.retryAfter(now: now()))))
        default:
            return .failure(.jwksUnavailable(.httpStatus(response.status)))
        }
    }

    /// The verifier for a token's `alg` and `kid`: the key is chosen as ``IDTokenValidator`` describes, with one
    /// forced refresh of the key set when no key fits (key rotation).
    func verifier(for algorithm: JWSAlgorithm, kid: String?) async throws(IDTokenValidationError) -> any JWTAlgorithm {
        let key: JSONWebKey
        do {
            key = try KeySelection.key(for: algorithm, kid: kid, in: try await keySet())
        } catch .keyNotFound {
            key = try KeySelection.key(for: algorithm, kid: kid, in: try await keySet(forceRefresh: true))
        }
        return try await verifier(for: key, algorithm: algorithm)
    }

    /// A verifier for `key` pinned to `algorithm`, loaded once per key set.
    func verifier(for key: JSONWebKey, algorithm: JWSAlgorithm) async throws(IDTokenValidationError)
        -> any JWTAlgorithm
    {
        let id = VerifierID(key: key, algorithm: algorithm)
        if let loaded = verifiers[id] { return loaded }
        let loaded = try await JWSVerifier.loadVerifier(key: key, algorithm: algorithm)
        verifiers[id] = loaded
        return loaded
    }
}

/// Identifies a loaded verifier: the key's members and the algorithm it is pinned to.
private struct VerifierID: Hashable {
    let key: JSONWebKey
    let algorithm: JWSAlgorithm
}
