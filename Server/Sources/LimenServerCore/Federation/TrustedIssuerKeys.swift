import Foundation
import LimenOIDC

/// One trusted issuer's signing keys: LimenOIDC's ``JWKSCache`` over its `jwks_url`, or over the `jwks_uri` its
/// discovery document names (fetched once, when the first token of the issuer arrives).
///
/// The cache keeps the key set for an hour and refetches it at most once a minute for a token naming an unknown key,
/// so tokens with made-up key IDs cannot make the server hammer the issuer. When the issuer cannot be reached (its
/// discovery or its keys fail), the next attempt waits: 1 second after the first failure, doubling with each failure in
/// a row up to a minute, and every token of the issuer meanwhile is refused at once as `keysUnavailable` — so tokens
/// naming an issuer that is down cannot make the server call it for each of them.
actor TrustedIssuerKeys {
    /// The wait after the first failure in a row, and the longest wait.
    static let backoff: (first: TimeInterval, maximum: TimeInterval) = (1, 60)

    /// The issuer.
    package let issuer: TrustedIssuer
    private let transport: any HTTPTransport
    private let minimumForcedRefreshInterval: TimeInterval
    private let now: @Sendable () -> Date
    private var cache: JWKSCache?
    private let discovery: ProviderDiscovery?
    /// Failures in a row, and until when no new attempt is made.
    private var failures: (count: Int, retryAt: Date)?

    /// Keys of `issuer`, fetched through `transport`; a forced refresh for an unknown key happens at most once per
    /// `minimumForcedRefreshInterval`.
    package init(
        issuer: TrustedIssuer,
        transport: any HTTPTransport,
        minimumForcedRefreshInterval: TimeInterval = 60,
        now: @escaping @Sendable () -> Date
    ) {
        self.issuer = issuer
        self.transport = transport
        self.minimumForcedRefreshInterval = minimumForcedRefreshInterval
        self.now = now
        if let jwksURL = issuer.jwksURL {
            cache = Self.cache(jwksURL, transport, minimumForcedRefreshInterval, now)
            discovery = nil
        } else {
            discovery = URL(string: issuer.issuer).map { ProviderDiscovery(issuer: $0, transport: transport, now: now) }
        }
    }

    /// The key cache, after discovery when the issuer has no `jwks_url`; `nil` while waiting after a failure, or when
    /// discovery failed or names no keys (a failure).
    package func keys() async -> JWKSCache? {
        if let failures, now() < failures.retryAt { return nil }
        if let cache { return cache }
        guard let metadata = try? await discovery?.metadata(), let jwksURI = metadata.jwksURI else {
            recordFailure()
            return nil
        }
        if let cache { return cache }  // another caller finished discovery while this one waited
        let created = Self.cache(jwksURI, transport, minimumForcedRefreshInterval, now)
        cache = created
        return created
    }

    /// Notes that the keys could not be fetched: the next attempt waits.
    /// Fetches the key set ahead of use when it expires within `margin` (discovering it first when needed); a failure
    /// counts towards the back-off as a request's does, and a success ends it.
    func refresh(expiringWithin margin: TimeInterval) async {
        guard let cache = await keys() else { return }
        do {
            try await cache.refresh(ifOlderThan: cache.timeToLive - margin)
            if isRecovering { recordSuccess() }
        } catch {
            recordFailure()
        }
    }

    func recordFailure() {
        let count = (failures?.count ?? 0) + 1
        let wait = min(Self.backoff.maximum, Self.backoff.first * pow(2, Double(min(count - 1, 16))))
        failures = (count, now().addingTimeInterval(wait))
    }

    /// Notes that the keys were fetched (or served): the next failure waits the shortest time again.
    func recordSuccess() {
        failures = nil
    }

    /// Whether a failure was recorded since the last success (so that a success is recorded only then).
    var isRecovering: Bool { failures != nil }

    private static func cache(
        _ url: URL,
        _ transport: any HTTPTransport,
        _ interval: TimeInterval,
        _ now: @escaping @Sendable () -> Date
    ) -> JWKSCache {
        JWKSCache(jwksURI: url, transport: transport, minimumForcedRefreshInterval: interval, now: now)
    }
}
