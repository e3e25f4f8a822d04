import Crypto
import Foundation
import JWTKit
import LimenWire

/// The client secret Apple asks of a server redeeming or revoking its tokens: an ES256 JWT signed with the team's key
/// (header `alg: ES256`, `kid` the key's ID; claims `iss` the team ID, `iat`, `exp` five minutes later (Apple allows
/// six months), `aud` Apple's base URL, `sub` the bundle ID the tokens are for).
///
/// ```swift
/// let secret = try await AppleClientSecret(teamKey: key, privateKey: p256).make(
///     clientID: "com.example.app", audience: "https://appleid.apple.com", at: now)
/// ```
package struct AppleClientSecret: Sendable {
    /// How long a secret is valid: short, as one is made for each call.
    package static let lifetime: TimeInterval = 300

    /// The team and key IDs.
    package let teamKey: AppleSignIn.TeamKey
    /// The team's P-256 private key.
    package let privateKey: P256.Signing.PrivateKey

    /// The team key's private key read from its `.p8` file (PEM), or `nil` when it cannot be read.
    package static func privateKey(of teamKey: AppleSignIn.TeamKey) -> P256.Signing.PrivateKey? {
        guard let data = FileManager.default.contents(atPath: teamKey.privateKeyFile),
            let pem = String(data: data, encoding: .utf8)
        else { return nil }
        return try? P256.Signing.PrivateKey(pemRepresentation: pem)
    }

    /// A secret for the client `clientID` (a bundle ID), for Apple at `audience`, issued at `date`.
    package func make(clientID: String, audience: String, at date: Date) async throws -> String {
        let collection = JWTKeyCollection()
        let kid = JWKIdentifier(string: teamKey.keyID)
        await collection.add(ecdsa: try ES256PrivateKey(backing: privateKey), kid: kid)
        let issuedAt = date.timeIntervalSince1970.rounded(.down)
        let claims: [String: JSONValue] = [
            "iss": .string(teamKey.teamID), "iat": .number(issuedAt), "exp": .number(issuedAt + Self.lifetime),
            "aud": .string(audience), "sub": .string(clientID),
        ]
        var header = JWTHeader()
        header.alg = "ES256"
        return try await collection.sign(ClaimSet(members: claims), kid: kid, header: header)
    }
}
