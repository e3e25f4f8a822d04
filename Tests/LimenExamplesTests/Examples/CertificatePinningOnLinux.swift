// snippet: pinning-linux
import Foundation
import Limen
import LimenNIOTransport

// snippet.hide
/// The pinning article's Linux transport: pins enforced through `NIOHTTPTransport`, with a private root.
func certificatePinningOnLinux(pins: [String], privateRoot: URL) throws -> AuthClient {
    // snippet.show
    let transport = try NIOHTTPTransport(
        additionalTrustRoots: NIOHTTPTransport.trustRoots(pemFile: privateRoot)  // only for a private CA
    )
    var configuration = Configuration(
        issuer: URL(string: "https://id.example.com")!,
        clientID: "cli",
        transport: RetryingTransport(base: transport)
    )
    configuration.pinning = try CertificatePinning([PinnedHost("id.example.com", pins: pins)])
    let client = AuthClient(configuration: configuration)
    // snippet.hide
    return client
}
// end snippet
