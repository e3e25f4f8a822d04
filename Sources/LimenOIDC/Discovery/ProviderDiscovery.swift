import Foundation
import LimenWire

/// Fetches and caches an OpenID provider's metadata (OpenID Connect Discovery 1.0, RFC 8414).
///
/// The document comes from `{issuer}/.well-known/openid-configuration`; when that answers 404 the RFC 8414 location
/// `/.well-known/oauth-authorization-server{path}` is tried. The document's `issuer` must equal the configured
/// issuer exactly. A fetched document is reused until `timeToLive` has passed; concurrent callers share one fetch.
///
/// ```swift
/// let discovery = ProviderDiscovery(issuer: URL(string: "https://id.example.com")!, transport: URLSessionTransport())
/// let metadata = try await discovery.metadata()
/// ```
public actor ProviderDiscovery {
    /// The configured issuer identifier.
    public let issuer: URL
    private let transport: any HTTPTransport
    private let timeToLive: TimeInterval
    private let now: @Sendable () -> Date
    private var cached: (metadata: ProviderMetadata, fetchedAt: Date)?
    private let fetches = SingleFlight<ProviderMetadata, OIDCError>()

    /// Creates a discovery client.
    /// - Parameters:
    ///   - issuer: The issuer identifier, exactly as the provider publishes it.
    ///   - transport: How to reach the provider.
    ///   - timeToLive: How long a fetched document is reused (default one hour).
    ///   - now: The current time; injected by tests.
    public init(
        issuer: URL,
        transport: any HTTPTransport,
        timeToLive: TimeInterval = 3600,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.issuer = issuer
        self.transport = transport
        self.timeToLive = timeToLive
        self.now = now
    }

    /// The provider's metadata, from the cache while it is fresh.
    /// - Parameter forceRefresh: Fetch again even if the cached document is fresh.
    public func metadata(forceRefresh: Bool = false) async throws(OIDCError) -> ProviderMetadata {
        if !forceRefresh, let cached, now().timeIntervalSince(cached.fetchedAt) < timeToLive {
            return cached.metadata
        }
        let metadata = try await fetches.run { [issuer, transport] () async throws(OIDCError) in
            try await Self.fetch(issuer: issuer, transport: transport)
        }
        cached = (metadata, now())
        return metadata
    }

    /// Fetches, decodes and checks the document without touching any cache.
    public static func fetch(issuer: URL, transport: any HTTPTransport) async throws(OIDCError) -> ProviderMetadata {
        try validate(issuer: issuer)
        let openIDLocation = issuer.appendingPathComponent(".well-known/openid-configuration")
        let response: HTTPResponse
        do {
            response = try await EndpointResponse.send(
                HTTPRequest(url: openIDLocation, headers: ["Accept": "application/json"]),
                through: transport,
                endpoint: "discovery"
            )
        } catch .network(.httpStatus(404)) {
            response = try await EndpointResponse.send(
                HTTPRequest(url: oauthLocation(for: issuer), headers: ["Accept": "application/json"]),
                through: transport,
                endpoint: "discovery"
            )
        }
        let metadata: ProviderMetadata
        do {
            metadata = try JSONDecoder().decode(ProviderMetadata.self, from: response.body)
        } catch {
            throw .discovery(.invalidDocument(Self.describe(error)))
        }
        guard metadata.issuer == issuer.absoluteString else {
            throw .discovery(.issuerMismatch(expected: issuer.absoluteString, actual: metadata.issuer))
        }
        return metadata
    }

    /// RFC 8414 §3.1: the well-known segment goes between the host and the issuer's path.
    static func oauthLocation(for issuer: URL) -> URL {
        var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) ?? URLComponents()
        let path = components.path == "/" ? "" : components.path
        components.path = "/.well-known/oauth-authorization-server" + path
        return components.url ?? issuer
    }

    /// An issuer is an `https` URL without query or fragment; `http` is accepted for loopback hosts only.
    static func validate(issuer: URL) throws(OIDCError) {
        guard let components = URLComponents(url: issuer, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host?.lowercased(),
            components.query == nil, components.fragment == nil
        else { throw .discovery(.invalidIssuer(issuer.absoluteString)) }
        let isLoopback = ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host)
        guard scheme == "https" || (scheme == "http" && isLoopback) else {
            throw .discovery(.invalidIssuer(issuer.absoluteString))
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "invalid \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "not JSON"
        }
    }
}
