import Foundation

/// The part of the ``Store`` that keeps first-run creation single when several nodes start together on one database:
/// each may find no signing keys, but only one key per algorithm is stored.
public protocol FirstRunStore: Sendable {
    /// Stores `key` unless a key of its algorithm is stored already, and returns whether it was stored. Atomic
    /// across processes and nodes: of several nodes storing a first key of one algorithm at once, exactly one does.
    func insertSigningKeyIfAlgorithmAbsent(_ key: SigningKeyRecord) async throws(StorageError) -> Bool
}
