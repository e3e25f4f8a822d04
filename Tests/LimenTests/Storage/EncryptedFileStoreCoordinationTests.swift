import Foundation
import Testing

@testable import Limen

@Suite("EncryptedFileStore exclusive access", .timeLimit(.minutes(1)))
struct EncryptedFileStoreCoordinationTests {
    private struct BodyFailure: Error {}

    /// Reads the counter, yields so that other tasks get a chance to interleave, and writes it back plus one.
    private func increment(_ store: EncryptedFileStore) async throws {
        try await store.withExclusiveAccess {
            let current =
                try await store.read("counter").flatMap { Int(String(decoding: $0, as: UTF8.self)) } ?? 0
            await Task.yield()
            try await store.write(Data(String(current + 1).utf8), for: "counter")
        }
    }

    @Test("concurrent read-modify-write sequences through two instances lose no update")
    func noLostUpdates() async throws {
        try await withTemporaryDirectory { directory in
            let first = try EncryptedFileStore(directory: directory, namespace: "app")
            let second = try EncryptedFileStore(directory: directory, namespace: "app")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<24 {
                    let store = index.isMultiple(of: 2) ? first : second
                    group.addTask { try await increment(store) }
                }
                try await group.waitForAll()
            }
            #expect(try await first.read("counter") == Data("24".utf8))
        }
    }

    @Test("a body that throws releases exclusive access and its error reaches the caller")
    func throwingBodyReleases() async throws {
        try await withTemporaryDirectory { directory in
            let store = try EncryptedFileStore(directory: directory, namespace: "app")
            await #expect(throws: BodyFailure.self) {
                try await store.withExclusiveAccess { throw BodyFailure() }
            }
            let value = try await store.withExclusiveAccess { "released" }
            #expect(value == "released")
        }
    }

    @Test("namespaces in one directory lock independently")
    func namespacesLockIndependently() async throws {
        try await withTemporaryDirectory { directory in
            let first = try EncryptedFileStore(directory: directory, namespace: "first")
            let second = try EncryptedFileStore(directory: directory, namespace: "second")
            let nested = try await first.withExclusiveAccess {
                try await second.withExclusiveAccess { "both held" }
            }
            #expect(nested == "both held")
        }
    }
}
