import Crypto
import Foundation
import LimenWire

/// The opaque secrets the provider hands out (session cookies, pending-request identifiers, authorization codes,
/// refresh tokens):
/// 256 random bits, base64url, kept at rest only as SHA-256 (random values need no slow hash).
package enum RandomIdentifier {
    /// A new identifier.
    package static func make() -> String {
        RandomToken.make(byteCount: 32)
    }

    /// The stored form of `identifier`.
    package static func hash(_ identifier: String) -> Data {
        Data(SHA256.hash(data: Data(identifier.utf8)))
    }
}
