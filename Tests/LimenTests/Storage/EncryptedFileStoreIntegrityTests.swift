import Foundation
import Testing

@testable import Limen

@Suite("EncryptedFileStore refuses shared, altered and misplaced files")
struct EncryptedFileStoreIntegrityTests {
    /// A store in `directory` holding the entry "tokens", and the URLs of its key and entry files.
    private func populatedStore(in directory: URL) async throws -> (
        EncryptedFileStore, key: URL, entry: URL
    ) {
        let store = try EncryptedFileStore(directory: directory, namespace: "app")
        try await store.write(Data("secret".utf8), for: "tokens")
        return (
            store, directory.appending(component: "app.key"),
            directory.appending(component: "app.tokens.sealed")
        )
    }

    @Test(
        "a key file readable by others is refused with insecurePermissions",
        arguments: [0o644, 0o640, 0o602])
    func sharedKeyFile(mode: Int) async throws {
        try await withTemporaryDirectory { directory in
            let (store, keyFile, _) = try await populatedStore(in: directory)
            try setPermissions(mode, of: keyFile)
            let expected = StorageError.insecurePermissions(path: keyFile.path(percentEncoded: false))
            await #expect(throws: expected) { try await store.read("tokens") }
            await #expect(throws: expected) { try await store.write(Data(), for: "other") }
        }
    }

    @Test("an entry file readable by others is refused with insecurePermissions")
    func sharedEntryFile() async throws {
        try await withTemporaryDirectory { directory in
            let (store, _, entry) = try await populatedStore(in: directory)
            try setPermissions(0o644, of: entry)
            await #expect(
                throws: StorageError.insecurePermissions(path: entry.path(percentEncoded: false))
            ) {
                try await store.read("tokens")
            }
        }
    }

    @Test("an entry that is a symbolic link is refused with insecurePermissions")
    func symbolicLinkEntry() async throws {
        try await withTemporaryDirectory { directory in
            let (store, _, entry) = try await populatedStore(in: directory)
            let elsewhere = directory.appending(component: "elsewhere")
            try FileManager.default.moveItem(at: entry, to: elsewhere)
            try FileManager.default.createSymbolicLink(at: entry, withDestinationURL: elsewhere)
            await #expect(
                throws: StorageError.insecurePermissions(path: entry.path(percentEncoded: false))
            ) {
                try await store.read("tokens")
            }
        }
    }

    @Test("an entry with one flipped byte reads as corrupted", arguments: [0, 12, 20, -1])
    func flippedByte(position: Int) async throws {
        try await withTemporaryDirectory { directory in
            let (store, _, entry) = try await populatedStore(in: directory)
            var bytes = try Data(contentsOf: entry)
            let index = position >= 0 ? position : bytes.count + position
            bytes[index] ^= 0x01
            try overwrite(entry, with: bytes)
            await #expect(throws: StorageError.corrupted(key: "tokens")) {
                try await store.read("tokens")
            }
        }
    }

    @Test("a truncated entry reads as corrupted", arguments: [0, 1, 12, 27, 33])
    func truncated(length: Int) async throws {
        try await withTemporaryDirectory { directory in
            let (store, _, entry) = try await populatedStore(in: directory)
            let bytes = try Data(contentsOf: entry)
            #expect(bytes.count == 34)
            try overwrite(entry, with: bytes.prefix(length))
            await #expect(throws: StorageError.corrupted(key: "tokens")) {
                try await store.read("tokens")
            }
        }
    }

    @Test("an entry renamed to another key's file reads as corrupted")
    func renamedEntry() async throws {
        try await withTemporaryDirectory { directory in
            let (store, _, entry) = try await populatedStore(in: directory)
            try await store.write(Data("other".utf8), for: "profile")
            let profile = directory.appending(component: "app.profile.sealed")
            try FileManager.default.removeItem(at: profile)
            try FileManager.default.moveItem(at: entry, to: profile)
            await #expect(throws: StorageError.corrupted(key: "profile")) {
                try await store.read("profile")
            }
        }
    }

    @Test("an entry encrypted under another key file reads as corrupted")
    func foreignKeyFile() async throws {
        try await withTemporaryDirectory { directory in
            let (store, keyFile, _) = try await populatedStore(in: directory)
            try overwrite(keyFile, with: Data(repeating: 7, count: 32))
            await #expect(throws: StorageError.corrupted(key: "tokens")) {
                try await store.read("tokens")
            }
        }
    }

    @Test(
        "a key file that is not 32 bytes is refused with keyFileInvalid",
        arguments: [0, 16, 31, 33, 64])
    func wrongKeyFileSize(size: Int) async throws {
        try await withTemporaryDirectory { directory in
            let (store, keyFile, _) = try await populatedStore(in: directory)
            try overwrite(keyFile, with: Data(repeating: 1, count: size))
            let expected = StorageError.keyFileInvalid(path: keyFile.path(percentEncoded: false))
            await #expect(throws: expected) { try await store.read("tokens") }
            await #expect(throws: expected) { try await store.write(Data(), for: "tokens") }
        }
    }

    @Test("entries whose key file is gone are refused with keyFileInvalid")
    func missingKeyFile() async throws {
        try await withTemporaryDirectory { directory in
            let (store, keyFile, _) = try await populatedStore(in: directory)
            try FileManager.default.removeItem(at: keyFile)
            await #expect(throws: StorageError.keyFileInvalid(path: keyFile.path(percentEncoded: false))) {
                try await store.read("tokens")
            }
        }
    }
}
