import Crypto
import Foundation
import LimenWire
import Testing

/// A DPoP proof whose ES256 signature verified with swift-crypto against the P-256 key of its own `jwk` header.
struct VerifiedProof {
    let header: [String: JSONValue]
    let claims: [String: JSONValue]
    /// The header's key.
    let publicKey: P256.Signing.PublicKey

    /// Verifies `proof`; records an issue and throws when it does not verify.
    init(_ proof: String?) throws {
        let parts = try #require(proof).split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        try #require(parts.count == 3)
        let headerBytes = try #require(Base64URL.decode(parts[0]))
        let claimBytes = try #require(Base64URL.decode(parts[1]))
        let signatureBytes = try #require(Base64URL.decode(parts[2]))
        let header = try #require(try JSONValue(parsing: headerBytes).objectValue)
        let jwk = try #require(header["jwk"]?.objectValue)
        let x = try #require(jwk["x"]?.stringValue.flatMap { Base64URL.decode($0) })
        let y = try #require(jwk["y"]?.stringValue.flatMap { Base64URL.decode($0) })
        let publicKey = try P256.Signing.PublicKey(rawRepresentation: x + y)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: signatureBytes)
        try #require(publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
        self.header = header
        self.claims = try #require(try JSONValue(parsing: claimBytes).objectValue)
        self.publicKey = publicKey
    }
}
