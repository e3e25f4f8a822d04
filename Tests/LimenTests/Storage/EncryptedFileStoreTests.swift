import Foundation
import Testing

@testable import Limen

@Suite("EncryptedFileStore")
struct EncryptedFileStoreTests {
    @Test("a written entry reads back unchanged")
    func roundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let store = try EncryptedFileStore(directory: directory, namespace: "app")
            let secret = Data("refresh-token-value".utf8)
            try await store.write(secret, for: "tokens")
            #expect(try await store.read("tokens") == secret)
            try await store.write(Data(), for: "empty")
            #expect(try await store.read("empty") == Data())
        }
    }

    @Test("a missing entry reads as nil, even before the directory exists")
    func missingIsNil() async throws {
        try await withTemporaryDirectory { directory in
            let store = try EncryptedFileStore(
                directory: directory.appending(component: "absent"), namespace: "app")
            #expect(try await store.read("tokens") == nil)
        }
    }

    @Test("a deleted entry reads as nil and deleting it again succeeds")
    func delete() async throws {
        try await withTemporaryDirectory { directory in
            let store = try EncryptedFileStore(directory: directory, namespace: "app")
            try await store.write(Data("x".utf8), for: "tokens")
            try await store.delete("tokens")
            #expect(try await store.read("tokens") == nil)
            try await store.delete("tokens")
        }
    }

    @Test("an overwrite replaces the previous value")
    func overwriteEntry() async throws {
        try await withTemporaryDirectory { directory in
            let store = try EncryptedFileStore(directory: directory, namespace: "app")
            try await store.write(Data("old".utf8), for: "tokens")
            try await store.write(Data("new".utf8), for: "tokens")
            #expect(try await store.read("tokens") == Data("new".utf8))
        }
    }

    @Test("stores with different namespaces in one directory do not see each other's entries")
    func namespacesAreIsolated() async throws {
        try await withTemporaryDirectory { directory in
            let first = try EncryptedFileStore(directory: directory, namespace: "first")
            let second = try EncryptedFileStore(directory: directory, namespace: "second")
            try await first.write(Data("one".utf8), for: "tokens")
            #expect(try await second.read("tokens") == nil)
            try await second.write(Data("two".utf8), for: "tokens")
            try await second.delete("tokens")
            #expect(try await first.read("tokens") == Data("one".utf8))
        }
    }

    @Test("a second instance over the same directory reads what the first wrote")
    func secondInstanceReads() async throws {
        try await withTemporaryDirectory { directory in
            let writer = try EncryptedFileStore(directory: directory, namespace: "app")
            try await writer.write(Data("shared".utf8), for: "tokens")
            let reader = try EncryptedFileStore(directory: directory, namespace: "app")
            #expect(try await reader.read("tokens") == Data("shared".utf8))
        }
    }

    @Test("the directory is created 0700 and the key, entry and lock files 0600")
    func filesArePrivate() async throws {
        try await withTemporaryDirectory { base in
            let directory = base.appending(component: "nested").appending(component: "store")
            let store = try EncryptedFileStore(directory: directory, namespace: "app")
            try await store.write(Data("x".utf8), for: "tokens")
            try await store.withExclusiveAccess {}
            #expect(try permissions(of: directory) == 0o700)
            #expect(try permissions(of: base.appending(component: "nested")) == 0o700)
            #expect(try fileNames(in: directory) == ["app.key", "app.lock", "app.tokens.sealed"])
            for name in try fileNames(in: directory) {
                #expect(try permissions(of: directory.appending(component: name)) == 0o600, "\(name)")
            }
        }
    }

    @Test("the entry file holds ciphertext, not the secret")
    func entryIsEncrypted() async throws {
        try await withTemporaryDirectory { directory in
            let store = try EncryptedFileStore(directory: directory, namespace: "app")
            let secret = Data("plain-secret-marker".utf8)
            try await store.write(secret, for: "tokens")
            let sealed = try Data(contentsOf: directory.appending(component: "app.tokens.sealed"))
            #expect(sealed.count == secret.count + 28)
            #expect(sealed.range(of: secret) == nil)
        }
    }

    @Test("no temporary files remain after writes and deletes")
    func noTemporaryFilesRemain() async throws {
        try await withTemporaryDirectory { directory in
            let store = try EncryptedFileStore(directory: directory, namespace: "app")
            for round in 0..<5 {
                try await store.write(Data("value \(round)".utf8), for: "tokens")
                try await store.write(Data("value \(round)".utf8), for: "profile")
            }
            try await store.delete("profile")
            #expect(try fileNames(in: directory) == ["app.key", "app.tokens.sealed"])
        }
    }

    @Test(
        "keys outside letters, digits, '.', '-', '_' are refused",
        arguments: [
            "", "a/b", "../escape", "with space", "ümlaut", "line\nbreak",
            String(repeating: "k", count: 129),
        ])
    func invalidKeysAreRefused(key: String) async throws {
        try await withTemporaryDirectory { directory in
            let store = try EncryptedFileStore(directory: directory, namespace: "app")
            await #expect(throws: StorageError.invalidKey(key)) {
                try await store.write(Data(), for: key)
            }
            await #expect(throws: StorageError.invalidKey(key)) { try await store.read(key) }
            await #expect(throws: StorageError.invalidKey(key)) { try await store.delete(key) }
            #expect(try fileNames(in: directory).isEmpty)
        }
    }

    @Test(
        "identifier keys are accepted",
        arguments: ["tokens", "a.b-c_D9", "..", String(repeating: "k", count: 128)])
    func identifierKeysAreAccepted(key: String) async throws {
        try await withTemporaryDirectory { directory in
            let store = try EncryptedFileStore(directory: directory, namespace: "app")
            try await store.write(Data(key.utf8), for: key)
            #expect(try await store.read(key) == Data(key.utf8))
        }
    }

    @Test(
        "namespaces outside letters, digits, '-', '_' are refused",
        arguments: [
            "", "a.b", "a/b", "with space", String(repeating: "n", count: 65),
        ])
    func invalidNamespacesAreRefused(namespace: String) {
        #expect(throws: StorageError.invalidNamespace(namespace)) {
            try EncryptedFileStore(directory: URL(filePath: "/tmp"), namespace: namespace)
        }
    }
}
