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
        let first = try await keys(store).key(session: nil)
        #expect(try await store.read("app.dpop_key") == first.persistentRepresentation)
        let again = try await keys(store).key(session: nil)
        #expect(again.publicKey.rawRepresentation == first.publicKey.rawRepresentation)
    }

    @Test("discarding deletes the key: the next session gets a new one")
    func rotatedOnDiscard() async throws {
        let store = MemoryStore()
        let keys = keys(store)
        let first = try await keys.key(session: nil)
        await keys.discard()
        #expect(try await store.read("app.dpop_key") == nil)
        let next = try await keys.key(session: nil)
        #expect(next.publicKey.rawRepresentation != first.publicKey.rawRepresentation)
    }

    @Test("another process's new key is read from the store for a new session, and not before")
    func rereadForNewSession() async throws {
        let store = MemoryStore()
        let keys = keys(store)
        let first = try await keys.key(session: "rt-1")
        // Another process sharing the store signed out and in again: its session has a key of its own.
        let other = SoftwareDPoPKey()
        try await store.write(other.persistentRepresentation, for: "app.dpop_key")
        let same = try await keys.key(session: "rt-1")
        #expect(same.publicKey.rawRepresentation == first.publicKey.rawRepresentation, "the session held keeps its key")
        let next = try await keys.key(session: "rt-2")
        #expect(next.publicKey.rawRepresentation == other.publicKey.rawRepresentation)
        #expect(try await store.read("app.dpop_key") == other.persistentRepresentation, "read, not replaced")
    }

    @Test("a stored key that cannot be restored is replaced by a new one")
    func unusableStoredKey() async throws {
        let store = MemoryStore()
        try await store.write(Data("not a key".utf8), for: "app.dpop_key")
        let key = try await keys(store).key(session: nil)
        #expect(try await store.read("app.dpop_key") == key.persistentRepresentation)
    }
}

extension DPoPKeyStoreTests {
    @Test("concurrent first uses share one key: none binds tokens to a key the store then replaces")
    func concurrentFirstUse() async throws {
        let store = MemoryStore()
        let keys = keys(store)
        let made = try await withThrowingTaskGroup(of: Data.self) { group in
            for _ in 0..<8 { group.addTask { try await keys.key(session: nil).publicKey.rawRepresentation } }
            return try await group.reduce(into: Set<Data>()) { $0.insert($1) }
        }
        #expect(made.count == 1)
        let stored = try #require(try await store.read("app.dpop_key"))
        #expect(try SoftwareDPoPKey(persistentRepresentation: stored).publicKey.rawRepresentation == made.first)
    }
}
