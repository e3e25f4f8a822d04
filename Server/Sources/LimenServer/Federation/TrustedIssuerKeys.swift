import Foundation
import LimenOIDC

/// One trusted issuer's signing keys: LimenOIDC's ``JWKSCache`` over its `jwks_url`, or over the `jwks_uri` its
/// discovery document names (fetched once, when the first token of the issuer arrives).
///
/// The cache keeps the key set for an hour and refetches it at most once a minute for a token naming an unknown key,
/// so tokens with made-up key IDs cannot make the server hammer the issuer.
actor TrustedIssuerKeys {
    /// The issuer.
    let issuer: TrustedIssuer
    private let transport: any HTTPTransport
    private let minimumForcedRefreshInterval: TimeInterval
    private let now: @Sendable () -> Date
    private var cache: JWKSCache?
    private let discovery: ProviderDiscovery?

    /// Keys of `issuer`, fetched through `transport`; a forced refresh for an unknown key happens at most once per
    /// `minimumForcedRefreshInterval`.
    init(
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

    /// The key cache, after discovery when the issuer has no `jwks_url`; `nil` when discovery failed or names no keys.
    func keys() async -> JWKSCache? {
        if let cache { return cache }
        guard let metadata = try? await discovery?.metadata(), let jwksURI = metadata.jwksURI else { return nil }
        if let cache { return cache }  // another caller finished discovery while this one waited
        let created = Self.cache(jwksURI, transport, minimumForcedRefreshInterval, now)
        cache = created
        return created
    }

    private static func cache(
        _ url: URL,
        _ transport: any HTTPTransport,
        _ interval: TimeInterval,
        _ now: @escaping @Sendable () -> Date
    ) -> JWKSCache {
        JWKSCache(jwksURI: url, transport: transport, minimumForcedRefreshInterval: interval, now: now)
    }
}
