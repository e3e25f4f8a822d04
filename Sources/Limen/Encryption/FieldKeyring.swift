import Crypto
import Foundation
import LimenWire

/// The field-encryption keys of one client, one per user ID, in the client's secure store; the last key used is kept
/// in memory too, so encrypting a field does not read the store each time.
///
/// A key is stored as its `oct` JWK under `<namespace>.field_key.<base64url(SHA-256(user ID))>`: a user ID may hold
/// characters a store key cannot (`auth0|123`). Creating, replacing and deleting a key run one at a time in this
/// process (an ``AsyncMutex``) and under the store's cross-process lock, so two first encryptions at once, here or in
/// an app extension, end up with one key.
actor FieldKeyring {
    private let sessions: SessionStore
    private let namespace: String
    private let exclusive = AsyncMutex()
    private var cached: (userID: String, key: FieldEncryptionKey)?

    init(sessions: SessionStore, namespace: String) {
        self.sessions = sessions
        self.namespace = namespace
    }

    /// The store key under which `userID`'s key is kept.
    func storageKey(for userID: String) -> String {
        "\(namespace).field_key.\(Base64URL.encode(SHA256.hash(data: Data(userID.utf8))))"
    }

    /// `userID`'s key: from memory, else from the store, else (when `creating`) a new one, stored first.
    /// - Throws: ``EncryptionError/noKey`` (as ``LimenError/encryption(_:)``) when there is none and `creating` is
    ///   `false`; ``LimenError/storage(_:)`` when the store fails or holds something that is not a key.
    func key(for userID: String, creating: Bool) async throws(LimenError) -> FieldEncryptionKey {
        if let cached, cached.userID == userID { return cached.key }
        let name = storageKey(for: userID)
        let store = sessions.store
        let key = try await exclusively { () async throws(LimenError) -> FieldEncryptionKey in
            if let stored = try await Self.read(name, from: store) { return stored }
            guard creating else { throw .encryption(.noKey) }
            let fresh = FieldEncryptionKey.generate()
            try await Self.write(fresh, as: name, to: store)
            return fresh
        }
        cached = (userID, key)
        return key
    }

    /// Makes `key` `userID`'s key, replacing any other (values encrypted with that one can no longer be read here).
    func replace(with key: FieldEncryptionKey, for userID: String) async throws(LimenError) {
        let name = storageKey(for: userID)
        let store = sessions.store
        try await exclusively { () async throws(LimenError) in try await Self.write(key, as: name, to: store) }
        cached = (userID, key)
    }

    /// Deletes `userID`'s key from the store and from memory.
    func delete(for userID: String) async throws(LimenError) {
        if cached?.userID == userID { cached = nil }
        let name = storageKey(for: userID)
        let store = sessions.store
        try await exclusively { () async throws(LimenError) in
            do throws(StorageError) {
                try await store.delete(name)
            } catch {
                throw .storage(error)
            }
        }
    }

    /// Drops the key kept in memory (the store keeps it).
    func forget() {
        cached = nil
    }

    /// Runs `body` alone among this keyring's callers and under the store's cross-process lock.
    private func exclusively<T: Sendable>(_ body: @escaping @Sendable () async throws(LimenError) -> T)
        async throws(LimenError) -> T
    {
        try await exclusive.withLock { () async throws(LimenError) -> T in try await sessions.exclusively(body) }
    }

    private static func read(_ name: String, from store: any SecureStore) async throws(LimenError)
        -> FieldEncryptionKey?
    {
        let data: Data?
        do {
            data = try await store.read(name)
        } catch {
            throw .storage(error)
        }
        guard let data else { return nil }
        do {
            return try FieldEncryptionKey(jwk: data)
        } catch {
            throw .storage(.corrupted(key: name))
        }
    }

    private static func write(_ key: FieldEncryptionKey, as name: String, to store: any SecureStore)
        async throws(LimenError)
    {
        do {
            try await store.write(key.jwk, for: name)
        } catch {
            throw .storage(error)
        }
    }
}
