import Foundation
import LimenWire
import Logging

/// The DPoP key of one client's sessions, kept in its ``SecureStore`` under `<namespace>.dpop_key`.
///
/// The key is made at the first DPoP request, survives restarts (its tokens are bound to it), and is deleted when the
/// session ends, so that each sign-in gets a new key and two sessions cannot be linked by their key. A stored key that
/// can no longer be restored (a Secure Enclave key after the app moved to another device) is replaced by a new one:
/// the tokens bound to it are then refused, and the user signs in again.
///
/// Processes sharing the store (an app and its extensions) each keep the key in memory for the session they hold, and
/// read it from the store again when that session changes: after another process signed out and in again, its new
/// session comes with its new key.
actor DPoPKeyStore {
    private let source: any DPoPKeySource
    private let store: any SecureStore
    private let storageKey: String
    private let logger: Logger
    /// The key in memory, and the session it was read for.
    private var cached: (key: any DPoPKey, session: String?)?
    /// Concurrent first uses share one read (and one new key): two keys made at once would bind tokens to a key that
    /// the store then replaces.
    private let loading = SingleFlight<any DPoPKey, LimenError>()

    /// The store of the keys `source` makes, in `store` under `namespace`.
    init(source: any DPoPKeySource, store: any SecureStore, namespace: String, logger: Logger) {
        self.source = source
        self.store = store
        self.storageKey = "\(namespace).dpop_key"
        self.logger = logger
    }

    /// The key of `session` (what tells the session held apart from another: its refresh token, say; `nil` before a
    /// sign-in): the one in memory when it was read for the same session, else the stored one, else a new one, stored
    /// before it is used.
    func key(session: String?) async throws(LimenError) -> any DPoPKey {
        if let cached, cached.session == session { return cached.key }
        let key = try await loading.run { () async throws(LimenError) in try await self.load() }
        cached = (key, session)
        return key
    }

    /// The stored key, or a new one once it is stored.
    private func load() async throws(LimenError) -> any DPoPKey {
        let stored: Data?
        do {
            stored = try await store.read(storageKey)
        } catch {
            throw .storage(error)
        }
        if let stored {
            do {
                return try source.restoreKey(from: stored)
            } catch {
                logger.warning("stored DPoP key unusable; making a new one")
            }
        }
        let key: any DPoPKey
        do {
            key = try source.makeKey()
        } catch {
            throw .dpop(.keyUnavailable(String(describing: error)))
        }
        do {
            try await store.write(key.persistentRepresentation, for: storageKey)
        } catch {
            throw .storage(error)
        }
        return key
    }

    /// Forgets the key, in memory and in the store: the next session gets a new one.
    func discard() async {
        cached = nil
        do {
            try await store.delete(storageKey)
        } catch {
            logger.warning("DPoP key not deleted from the store", metadata: ["code": "\(error.code)"])
        }
    }
}
