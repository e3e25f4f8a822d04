import Crypto
import Foundation
import LimenWire

/// The nonces a server asks DPoP proofs to carry (`DPoP-Nonce`, RFC 9449 §8, §9), kept nowhere: a nonce is the HMAC of
/// a time window's number under a key every node derives from the master key, so any node accepts another's nonce.
///
/// A nonce is handed out for one window and accepted in it and the next, so one fetched just before a window turns
/// still works: it lives between one and two windows.
///
/// ```swift
/// let nonces = DPoPNonces(key: derivedKeys.key(for: .dpopNonce))
/// response.headers[dpopNonce] = nonces.current(at: now)
/// nonces.accepts(sent, at: now)
/// ```
package struct DPoPNonces: Sendable {
    /// How long a window lasts by default, in seconds.
    package static let defaultWindow: TimeInterval = 300

    /// The key the nonces are made with.
    private let key: SymmetricKey
    /// How long a window lasts, in seconds.
    package let window: TimeInterval

    /// Nonces made with `key`, a new one every `window` seconds.
    package init(key: SymmetricKey, window: TimeInterval = defaultWindow) {
        self.key = key
        self.window = max(1, window)
    }

    /// The nonce to hand out at `now`: the current window's.
    package func current(at now: Date) -> String {
        nonce(ofWindow: windowNumber(at: now))
    }

    /// Whether `nonce` is the current window's or the previous one's (compared in constant time).
    package func accepts(_ nonce: String, at now: Date) -> Bool {
        let number = windowNumber(at: now)
        let current = ConstantTime.equals(nonce, self.nonce(ofWindow: number))
        let previous = ConstantTime.equals(nonce, self.nonce(ofWindow: number - 1))
        return current || previous
    }

    /// The number of the window `now` lies in.
    private func windowNumber(at now: Date) -> Int64 {
        Int64((now.timeIntervalSince1970 / window).rounded(.down))
    }

    /// The nonce of window `number`: base64url of HMAC-SHA256 of its 8 big-endian bytes.
    private func nonce(ofWindow number: Int64) -> String {
        let bytes = withUnsafeBytes(of: number.bigEndian) { Data($0) }
        return Base64URL.encode(HMAC<SHA256>.authenticationCode(for: bytes, using: key))
    }
}
