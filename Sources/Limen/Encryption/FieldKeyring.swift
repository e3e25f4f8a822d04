import Crypto
import Foundation
import LimenWire

/// The field-encryption keys of one client, one per user ID, in the client's secure store; the last key used is kept
/// in memory too, readable without entering the actor, so encrypting a field neither reads the store nor waits.
///
/// A key is stored as its `oct` JWK under `<namespace>.field_key.<base64url(SHA-256(user ID))>`: a user ID may hold
/// characters a store key cannot (`auth0|123`). Creating, replacing and deleting a key run one at a time in this
/// process (an ``AsyncMutex``) and under the store's cross-process lock, so two first encryptions at once, here or in
/// an app extension, end up with one key.
actor FieldKeyring {
    private let sessions: SessionStore
    private let namespace: String
    private let exclusive = AsyncMutex()
    /// The last key used and its user; written only inside ``exclusively(remembering:_:)`` and by ``forget()``.
    private nonisolated let memory = LockedValue<(userID: String, key: FieldEncryptionKey)?>(nil)

    init(sessions: SessionStore, namespace: String) {
        self.sessions = sessions
        self.namespace = namespace
    }

    /// The store key under which `userID`'s key is kept.
    func storageKey(for userID: String) -> String {
        "\(namespace)\(Self.keyMarker)\(Base64URL.encode(SHA256.hash(data: Data(userID.utf8))))"
    }

    /// What every key's store key holds between the namespace and the user's hash.
    private static let keyMarker = ".field_key."

    /// Whether the store key `key` holds a user's field-encryption key (of any namespace).
    static func isKeyAccount(_ key: String) -> Bool {
        key.contains(keyMarker)
    }

    /// `userID`'s key: from memory, else from the store, else (when `creating`) a new one, stored first.
    /// - Throws: `EncryptionError.noKey` (as ``LimenError/encryption(_:)``) when there is none and `creating` is
    ///   `false`; ``LimenError/storage(_:)`` when the store fails or holds something that is not a key.
    func key(for userID: String, creating: Bool) async throws(LimenError) -> FieldEncryptionKey {
        if let remembered = rememberedKey(for: userID) { return remembered }
        let name = storageKey(for: userID)
        let store = sessions.store
        let key = try await exclusively(remembering: userID) { () async throws(LimenError) -> FieldEncryptionKey? in
            if let stored = try await Self.read(name, from: store) { return stored }
            guard creating else { return nil }
            let fresh = FieldEncryptionKey.generate()
            try await Self.write(fresh, as: name, to: store)
            return fresh
        }
        guard let key else { throw .encryption(.noKey) }
        return key
    }

    /// Makes `key` `userID`'s key, replacing any other (values encrypted with that one can no longer be read here).
    func replace(with key: FieldEncryptionKey, for userID: String) async throws(LimenError) {
        let name = storageKey(for: userID)
        let store = sessions.store
        _ = try await exclusively(remembering: userID) { () async throws(LimenError) -> FieldEncryptionKey? in
            try await Self.write(key, as: name, to: store)
            return key
        }
    }

    /// Deletes `userID`'s key from the store and from memory.
    func delete(for userID: String) async throws(LimenError) {
        let name = storageKey(for: userID)
        let store = sessions.store
        _ = try await exclusively(remembering: userID) { () async throws(LimenError) -> FieldEncryptionKey? in
            do throws(StorageError) {
                try await store.delete(name)
            } catch {
                throw .storage(error)
            }
            return nil
        }
    }

    /// The key kept in memory for `userID`, if it is theirs.
    nonisolated func rememberedKey(for userID: String) -> FieldEncryptionKey? {
        memory.withLock { remembered in remembered.flatMap { $0.userID == userID ? $0.key : nil } }
    }

    /// Drops the key kept in memory (the store keeps it).
    nonisolated func forget() {
        memory.withLock { $0 = nil }
    }

    /// Runs `body` alone among this keyring's callers and under the store's cross-process lock, then, still alone,
    /// makes what it returns the key kept in memory for `userID` (nothing, when it returns `nil`): a load that
    /// finishes after a replacement cannot bring the replaced key back into memory.
    private func exclusively(
        remembering userID: String,
        _ body: @escaping @Sendable () async throws(LimenError) -> FieldEncryptionKey?
    ) async throws(LimenError) -> FieldEncryptionKey? {
        try await exclusive.withLock { () async throws(LimenError) -> FieldEncryptionKey? in
            let key = try await self.sessions.exclusively(body)
            self.memory.withLock { $0 = key.map { (userID, $0) } }
            return key
        }
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
