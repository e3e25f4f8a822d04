import Crypto
import Foundation

/// A value at rest: AES-256-GCM under a key derived from the master key for one purpose, bound to a context (the row
/// it belongs to), so that ciphertext moved to another row, altered, or under another master key does not open.
///
/// ```swift
/// let seal = DerivedKeySeal(keys: provider.derivedKeys, purpose: .mailOutbox)
/// let sealed = try seal.seal(body, context: "mail-outbox|\(id)")
/// let body = seal.open(sealed, context: "mail-outbox|\(id)")  // nil when it does not open
/// ```
package struct DerivedKeySeal: Sendable {
    private let key: SymmetricKey

    /// The seal under `keys`' key for `purpose`.
    package init(keys: DerivedKeys, purpose: DerivedKeyPurpose) {
        key = keys.key(for: purpose)
    }

    /// `plain` sealed for `context` (nonce, ciphertext and tag).
    package func seal(_ plain: Data, context: String) throws -> Data {
        let box = try AES.GCM.seal(plain, using: key, authenticating: Data(context.utf8))
        guard let combined = box.combined else { throw MasterKeyError.sealFailed }
        return combined
    }

    /// What `sealed` holds for `context`, or `nil` when it does not open.
    package func open(_ sealed: Data, context: String) -> Data? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed) else { return nil }
        return try? AES.GCM.open(box, using: key, authenticating: Data(context.utf8))
    }
}
