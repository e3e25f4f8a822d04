import Foundation
import LimenOIDC

/// One configured upstream provider as Limen, its relying party, reaches it through LimenOIDC: the discovery document
/// (fetched when first needed, kept an hour), a token client with Limen's credentials there, and one ID-token
/// validator over the keys the document names (its key cache refetches once for an unknown `kid`).
package actor UpstreamClient {
    /// The configured provider.
    package nonisolated let provider: IdentityProvider
    private let discovery: ProviderDiscovery?
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    private var validator: IDTokenValidator?

    /// A client of `provider` reaching it through `transport`.
    package init(provider: IdentityProvider, transport: any HTTPTransport, now: @escaping @Sendable () -> Date) {
        self.provider = provider
        self.transport = transport
        self.now = now
        discovery = URL(string: provider.issuer).map { ProviderDiscovery(issuer: $0, transport: transport, now: now) }
    }

    /// The provider's metadata, whose `issuer` equals the configured one.
    package func metadata() async throws(OIDCError) -> ProviderMetadata {
        guard let discovery else { throw .discovery(.invalidIssuer(provider.issuer)) }
        return try await discovery.metadata()
    }

    /// The token endpoint's client: HTTP Basic with the client secret, or a public client's `client_id` alone.
    package func tokens(_ metadata: ProviderMetadata) -> TokenClient {
        let authentication: ClientAuthentication =
            provider.clientSecret.map {
                ClientAuthentication.clientSecretBasic(clientID: provider.clientID, secret: $0)
            }
            ?? ClientAuthentication.none(clientID: provider.clientID)
        return TokenClient(metadata: metadata, authentication: authentication, transport: transport)
    }

    /// The validator of the provider's ID tokens for Limen's client ID (made once, with the keys at `jwks_uri`).
    func idTokenValidator(_ metadata: ProviderMetadata) throws(OIDCError) -> IDTokenValidator {
        if let validator { return validator }
        guard let jwksURI = metadata.jwksURI else { throw .discovery(.invalidDocument("missing jwks_uri")) }
        let created = IDTokenValidator(
            issuer: provider.issuer, clientID: provider.clientID,
            keys: JWKSCache(jwksURI: jwksURI, transport: transport, now: now), now: now)
        validator = created
        return created
    }
}

/// The configured upstream providers, in the configuration's order (the order of the buttons).
package struct UpstreamProviders: Sendable {
    /// The clients, in order.
    package let clients: [UpstreamClient]

    /// Clients of `providers`, reaching them through `transport`.
    package init(_ providers: [IdentityProvider], transport: any HTTPTransport, now: @escaping @Sendable () -> Date) {
        clients = providers.map { UpstreamClient(provider: $0, transport: transport, now: now) }
    }

    /// The client of the provider named `id`, if one is configured.
    package subscript(id: String?) -> UpstreamClient? {
        clients.first { $0.provider.id == id }
    }

    /// The configured providers, in order.
    package var providers: [IdentityProvider] { clients.map(\.provider) }
}
