import Foundation
import LimenWire
import Logging
import Testing

@testable import Limen

/// The DPoP key of a client's sessions in its secure store (``DPoPKeyStore``).
@Suite("DPoP key in the secure store")
struct DPoPKeyStoreTests {
    func keys(_ store: any SecureStore) -> DPoPKeyStore {
        DPoPKeyStore(source: SoftwareDPoPKeys(), store: store, namespace: "app", logger: Logger(label: "test"))
    }

    @Test("the key is stored at first use and the same key comes back after a restart")
    func survivesRestart() async throws {
        let store = MemoryStore()
        let first = try await keys(store).key()
        #expect(try await store.read("app.dpop_key") == first.persistentRepresentation)
        let again = try await keys(store).key()
        #expect(again.publicKey.rawRepresentation == first.publicKey.rawRepresentation)
    }

    @Test("discarding deletes the key: the next session gets a new one")
    func rotatedOnDiscard() async throws {
        let store = MemoryStore()
        let keys = keys(store)
        let first = try await keys.key()
        await keys.discard()
        #expect(try await store.read("app.dpop_key") == nil)
        let next = try await keys.key()
        #expect(next.publicKey.rawRepresentation != first.publicKey.rawRepresentation)
    }

    @Test("a stored key that cannot be restored is replaced by a new one")
    func unusableStoredKey() async throws {
        let store = MemoryStore()
        try await store.write(Data("not a key".utf8), for: "app.dpop_key")
        let key = try await keys(store).key()
        #expect(try await store.read("app.dpop_key") == key.persistentRepresentation)
    }
}

extension DPoPKeyStoreTests {
    @Test("concurrent first uses share one key: none binds tokens to a key the store then replaces")
    func concurrentFirstUse() async throws {
        let store = MemoryStore()
        let keys = keys(store)
        let made = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<8 { group.addTask { try await keys.key().publicKey.rawRepresentation } }
            return try await group.reduce(into: Set<Data>()) { $0.insert($1) }
        }
        #expect(made.count == 1)
        let stored = try #require(try await store.read("app.dpop_key"))
        #expect(try SoftwareDPoPKey(persistentRepresentation: stored).publicKey.rawRepresentation == made.first)
    }
}
