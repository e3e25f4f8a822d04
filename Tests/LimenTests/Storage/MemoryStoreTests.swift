import Foundation
import Testing

@testable import Limen

@Suite("MemoryStore")
struct MemoryStoreTests {
    @Test("entries round-trip, delete, and read as nil when missing")
    func roundTrip() async throws {
        let store = MemoryStore()
        #expect(try await store.read("tokens") == nil)
        try await store.write(Data("secret".utf8), for: "tokens")
        #expect(try await store.read("tokens") == Data("secret".utf8))
        try await store.delete("tokens")
        #expect(try await store.read("tokens") == nil)
    }

    @Test("invalid keys are refused as by the file store")
    func invalidKey() async {
        let store = MemoryStore()
        await #expect(throws: StorageError.invalidKey("a/b")) {
            try await store.write(Data(), for: "a/b")
        }
    }

    @Test("exclusive access serialises read-modify-write sequences")
    func exclusiveAccess() async throws {
        let store = MemoryStore()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await store.withExclusiveAccess {
                        let current =
                            try await store.read("n").map { Int(String(decoding: $0, as: UTF8.self)) ?? 0 } ?? 0
                        await Task.yield()
                        try await store.write(Data(String(current + 1).utf8), for: "n")
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.read("n") == Data("50".utf8))
    }
}
