import Crypto
import Foundation

/// The `at_hash` / `c_hash` construction (OpenID Connect Core §3.1.3.6, §3.3.2.11).
package enum AccessTokenHash {
    /// The values a provider may compute: base64url of the left half of the hash of the token's ASCII octets.
    ///
    /// For RSA and ECDSA algorithms the hash is the one the algorithm names. EdDSA names none: Ed25519 hashes with
    /// SHA-512, which the OpenID Foundation's guidance adopts, while deployed providers (glewlwyd among them) use
    /// SHA-256. Both are accepted for EdDSA; either binds the access token equally well.
    package static func candidates(of token: String, algorithm: JWSAlgorithm) -> [String] {
        let octets = Data(token.utf8)
        let digests: [[UInt8]] =
            switch algorithm {
            case .rs256, .ps256, .es256: [Array(SHA256.hash(data: octets))]
            case .rs384, .ps384, .es384: [Array(SHA384.hash(data: octets))]
            case .rs512, .ps512, .es512: [Array(SHA512.hash(data: octets))]
            case .edDSA: [Array(SHA512.hash(data: octets)), Array(SHA256.hash(data: octets))]
            }
        return digests.map { Base64URL.encode($0.prefix($0.count / 2)) }
    }
}
