import Crypto
import Foundation

/// Unguessable values for `state`, `nonce` and PKCE verifiers.
public enum RandomToken {
    /// Base64url of `byteCount` random bytes from the system's secure generator (32 bytes give 256 bits).
    public static func make(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
