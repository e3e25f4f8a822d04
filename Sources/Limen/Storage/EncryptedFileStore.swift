import Crypto
import Foundation
import Logging

/// A ``SecureStore`` that keeps each entry in its own AES-256-GCM encrypted file: the store for platforms
/// without a keychain (Linux, the command-line tool).
///
/// Files in `directory` (created `0700` when missing), all mode `0600`:
/// - `<namespace>.key` — the 32-byte encryption key, created on the first write;
/// - `<namespace>.<key>.sealed` — one entry: the AES-GCM combined box (nonce, ciphertext, tag), with the
///   namespace and key bound as authenticated data, so an entry moved to another name fails to open;
/// - `<namespace>.lock` — the lock file behind ``withExclusiveAccess(_:)``.
///
/// Stores with different namespaces share a directory without seeing each other's entries. Writes are
/// atomic (temporary file, `fsync`, `rename`). Files readable or writable by group or others are refused
/// with ``StorageError/insecurePermissions(path:)``; altered or truncated entries surface as
/// ``StorageError/corrupted(key:)``. Reads and writes touch small files on the calling task.
///
/// ```swift
/// let store = try EncryptedFileStore(directory: configDirectory, namespace: "limen-cli")
/// try await store.write(Data(tokenJSON.utf8), for: "tokens")
/// ```
public final class EncryptedFileStore: ProcessCoordinatedStore {
    /// The directory holding the store's files.
    public let directory: URL
    /// The namespace that prefixes every file of this store.
    public let namespace: String
    private let directoryPath: String
    private let lock: ProcessLock
    private static let logger = Logger(label: "limen.storage")

    /// Creates a store over `directory` for `namespace`; nothing is touched on disk until first use.
    ///
    /// Throws ``StorageError/invalidNamespace(_:)`` unless `namespace` is 1–64 ASCII letters, digits, `-`, `_`.
    public convenience init(directory: URL, namespace: String) throws(StorageError) {
        try StorageName.validate(namespace: namespace)
        self.init(directory: directory, validNamespace: namespace)
    }

    /// Creates a store for a namespace already known to follow ``StorageName``'s rules.
    init(directory: URL, validNamespace namespace: String) {
        self.directory = directory
        self.namespace = namespace
        self.directoryPath = ProcessLock.trimmingTrailingSlash(directory.path(percentEncoded: false))
        self.lock = ProcessLock(directoryPath: directoryPath, fileName: "\(namespace).lock")
    }

    /// Returns the decrypted entry for `key`, or `nil` when there is none.
    public func read(_ key: String) async throws(StorageError) -> Data? {
        try StorageName.validate(key: key)
        guard let sealed = try PrivateFile.contents(at: entryPath(for: key)) else { return nil }
        guard let keyBytes = try PrivateFile.contents(at: keyFilePath) else {
            throw .keyFileInvalid(path: keyFilePath)
        }
        let encryptionKey = try symmetricKey(from: keyBytes)
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return try AES.GCM.open(
                box, using: encryptionKey, authenticating: authenticatedData(for: key))
        } catch {
            throw .corrupted(key: key)
        }
    }

    /// Encrypts `data` and atomically replaces the entry for `key` with it.
    public func write(_ data: Data, for key: String) async throws(StorageError) {
        try StorageName.validate(key: key)
        try PrivateFile.makeDirectory(directoryPath)
        let encryptionKey = try loadOrCreateKey()
        // With a 256-bit key and the default random 96-bit nonce, neither sealing nor `combined` can fail.
        let box = try? AES.GCM.seal(
            data, using: encryptionKey, authenticating: authenticatedData(for: key))
        guard let sealed = box?.combined else { throw .keyFileInvalid(path: keyFilePath) }
        try PrivateFile.replace(
            entryPath(for: key), with: Array(sealed), through: temporaryPath(for: key))
    }

    /// Removes the entry for `key`; removing a missing entry succeeds.
    public func delete(_ key: String) async throws(StorageError) {
        try StorageName.validate(key: key)
        try PrivateFile.remove(entryPath(for: key))
    }

    /// Runs `body` holding both this instance's in-process lock and an exclusive `flock` on
    /// `<namespace>.lock`, which every process using the same directory and namespace respects.
    ///
    /// Callers on one instance queue in order without tying up threads; at most one of them waits for the
    /// file lock, on a dedicated thread (see ``FileLock``).
    public func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws
        -> T
    {
        try await lock.withLock(body)
    }

    private var keyFilePath: String { path(of: "\(namespace).key") }

    private func entryPath(for key: String) -> String { path(of: "\(namespace).\(key).sealed") }

    private func temporaryPath(for key: String) -> String {
        path(of: ".\(namespace).\(key).\(UUID().uuidString).tmp")
    }

    private func path(of fileName: String) -> String { "\(directoryPath)/\(fileName)" }

    /// The authenticated data binding a sealed box to its namespace and key (neither can contain a newline).
    private func authenticatedData(for key: String) -> Data {
        Data("limen.storage.v1\n\(namespace)\n\(key)".utf8)
    }

    private func symmetricKey(from bytes: [UInt8]) throws(StorageError) -> SymmetricKey {
        guard bytes.count == SymmetricKeySize.bits256.bitCount / 8 else {
            throw .keyFileInvalid(path: keyFilePath)
        }
        return SymmetricKey(data: bytes)
    }

    /// Reads the key file, or creates it with a fresh random key; when another process creates it at the
    /// same moment, both end up using the one that was published first.
    private func loadOrCreateKey() throws(StorageError) -> SymmetricKey {
        if let bytes = try PrivateFile.contents(at: keyFilePath) {
            return try symmetricKey(from: bytes)
        }
        let fresh = SymmetricKey(size: .bits256)
        let freshBytes = fresh.withUnsafeBytes { Array($0) }
        if try PrivateFile.publish(freshBytes, at: keyFilePath, through: temporaryPath(for: "key")) {
            Self.logger.notice("Created storage key file", metadata: ["path": "\(keyFilePath)"])
            return fresh
        }
        guard let published = try PrivateFile.contents(at: keyFilePath) else {
            throw .keyFileInvalid(path: keyFilePath)
        }
        return try symmetricKey(from: published)
    }
}
