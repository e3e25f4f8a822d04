import Foundation
import Limen
import LimenOIDC

extension LimenServerPeer {
    /// A client of the seeded first-party native client `limen-cli` (its registered loopback redirect, `profile`,
    /// `email` and `offline_access`), with a session of its own in memory.
    public func cliClient() throws -> AuthClient {
        guard let redirectURI = URL(string: "http://127.0.0.1/callback") else { throw URLError(.badURL) }
        return AuthClient(
            configuration: Configuration(
                issuer: issuer, clientID: "limen-cli", redirectURI: redirectURI,
                scopes: ["profile", "email", "offline_access"], store: MemoryStore()))
    }
}
