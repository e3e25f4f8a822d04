import Foundation
import NIOConcurrencyHelpers

/// The ``TokenSigner`` for the provider's current keys, made once per key set (loading keys into jwt-kit costs more
/// than a signature) and remade when a reload brings other keys or other key times.
package final class TokenSignerCache: Sendable {
    private let cached = NIOLockedValueBox<(fingerprint: [String], signer: TokenSigner)?>(nil)

    /// Makes it of its parts.
    package init() {
    }

    /// A signer over `keys`.
    package func signer(for keys: KeyRing) async throws -> TokenSigner {
        let fingerprint = keys.keys.map { key in
            "\(key.kid) \(key.activatesAt.timeIntervalSince1970) \(key.retiredAt?.timeIntervalSince1970 ?? -1)"
        }
        if let hit = cached.withLockedValue({ $0?.fingerprint == fingerprint ? $0?.signer : nil }) { return hit }
        let signer = try await TokenSigner(keys: keys)
        cached.withLockedValue { $0 = (fingerprint, signer) }
        return signer
    }
}
