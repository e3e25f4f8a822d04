import Foundation
import Testing

@testable import Limen

@Suite("KeychainStore logic, through a twin of the Keychain")
struct KeychainItemStoreTests {
    @Test("a missing item reads as nil; a write adds it, the next write updates it, a delete removes it")
    func roundTrip() async throws {
        let twin = KeychainTwin()
        let store = try KeychainItemStore.over(twin)
        #expect(try await store.read("tokens") == nil)
        try await store.write(Data("one".utf8), for: "tokens")
        try await store.write(Data("two".utf8), for: "tokens")
        #expect(try await store.read("tokens") == Data("two".utf8))
        try await store.delete("tokens")
        try await store.delete("tokens")
        #expect(twin.accounts.isEmpty)
    }

    @Test("a locked device fails every call with a retryable errSecInteractionNotAllowed")
    func locked() async throws {
        let twin = KeychainTwin()
        let store = try KeychainItemStore.over(twin)
        twin.lock()
        let readError = await #expect(throws: StorageError.self) { try await store.read("tokens") }
        #expect(readError == .keychain(status: -25308))
        #expect(readError?.isRetryable == true)
        await #expect(throws: StorageError.keychain(status: -25308)) {
            try await store.write(Data("x".utf8), for: "tokens")
        }
    }

    @Test("the account the reinstall check records into is refused as a key")
    func reservedKey() async throws {
        let store = try KeychainItemStore.over(KeychainTwin())
        await #expect(throws: StorageError.invalidKey(".installation")) { try await store.read(".installation") }
    }

    @Test("two stores sharing a lock directory never interleave read-modify-write sequences")
    func sharedLock() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            let app = try KeychainItemStore.over(twin, lockDirectory: directory)
            let widget = try KeychainItemStore.over(twin, lockDirectory: directory)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<24 {
                    let store = index.isMultiple(of: 2) ? app : widget
                    group.addTask {
                        try await store.withExclusiveAccess {
                            let current =
                                try await store.read("counter").flatMap { Int(String(decoding: $0, as: UTF8.self)) }
                                ?? 0
                            await Task.yield()
                            try await store.write(Data(String(current + 1).utf8), for: "counter")
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await app.read("counter") == Data("24".utf8))
            #expect(try fileNames(in: directory) == ["app.lock"])
        }
    }
}
