import Crypto
import Foundation

/// The `at_hash` / `c_hash` construction (OpenID Connect Core §3.1.3.6, §3.3.2.11).
enum AccessTokenHash {
    /// Base64url of the left half of the hash of the token's ASCII octets, with the hash the algorithm uses
    /// (SHA-512 for EdDSA with Ed25519).
    static func value(of token: String, algorithm: JWSAlgorithm) -> String {
        let octets = Data(token.utf8)
        let digest: [UInt8] =
            switch algorithm {
            case .rs256, .ps256, .es256: Array(SHA256.hash(data: octets))
            case .rs384, .ps384, .es384: Array(SHA384.hash(data: octets))
            case .rs512, .ps512, .es512, .edDSA: Array(SHA512.hash(data: octets))
            }
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }
}
