// snippet: oidc-discovery
import Foundation
import LimenOIDC

// snippet.hide
/// The LimenOIDC landing page's example: discovery and a refresh through the stateless token client.
func protocolLayer(refreshToken: String) async throws {
    // snippet.show
    let transport = URLSessionTransport()
    let metadata = try await ProviderDiscovery.fetch(
        issuer: URL(string: "https://id.example.com")!,
        transport: transport
    )
    let tokens = TokenClient(metadata: metadata, authentication: .none(clientID: "my-tool"), transport: transport)
    let response = try await tokens.refresh(refreshToken)
    print(response.expiresIn ?? 0)
    // snippet.hide
}
// end snippet
