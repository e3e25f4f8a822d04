import Foundation
import LimenServerStorage
import NIOConcurrencyHelpers

/// The current key ring, replaced whole when keys are reloaded.
public final class KeyRingBox: Sendable {
    private let value: NIOLockedValueBox<KeyRing>

    /// A box holding `ring`.
    package init(_ ring: KeyRing) {
        value = NIOLockedValueBox(ring)
    }

    /// The key ring now.
    public var current: KeyRing { value.withLockedValue { $0 } }

    /// Replaces the ring with `ring`.
    package func replace(with ring: KeyRing) {
        value.withLockedValue { $0 = ring }
    }

    /// Replaces the ring with the keys in `store` (after a rotation by `limen-server keys rotate`, or by another node),
    /// opened with `masterKey`.
    package func reload(from store: any SigningKeyStore & FirstRunStore, masterKey: MasterKey, now: Date) async throws {
        replace(with: try await KeyRing.loadOrCreate(store: store, masterKey: masterKey, now: now))
    }
}
