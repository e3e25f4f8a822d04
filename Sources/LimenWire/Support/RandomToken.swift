import Crypto
import Foundation

/// Unguessable values for `state`, `nonce` and PKCE verifiers.
public enum RandomToken {
    /// Base64url of `byteCount` random bytes from the system's secure generator (32 bytes give 256 bits).
    public static func make(byteCount: Int = 32) -> String {
        Base64URL.encode(bytes(count: byteCount))
    }

    /// `count` random bytes from swift-crypto's secure generator, drawn at once (a byte at a time, through
    /// `SystemRandomNumberGenerator`, cost one system call per byte: most of a native flow step on the device).
    public static func bytes(count: Int) -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: count * 8)).withUnsafeBytes { Array($0) }
    }
}
