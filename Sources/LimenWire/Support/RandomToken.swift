import Crypto
import Foundation

/// Unguessable values for `state`, `nonce` and PKCE verifiers.
public enum RandomToken {
    /// Base64url of `byteCount` random bytes from the system's secure generator (32 bytes give 256 bits).
    public static func make(byteCount: Int = 32) -> String {
        Base64URL.encode(bytes(count: byteCount))
    }

    /// `count` random bytes from the system's secure generator.
    static func bytes(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
