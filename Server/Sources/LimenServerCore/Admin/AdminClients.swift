import Foundation
import LimenServerStorage
import LimenServerWire

/// The clients an admin manages, as the admin API and the admin console both change them: Limen Server's own
/// (``SeedClients/isInternal(_:)``) are never listed. Each change is recorded as an `admin.client_*` event from its
/// origin (whose actor is the admin token or the admin), in the change's unit, and forgotten by the client cache.
package struct AdminClients: Sendable {
    private let store: any ClientStore
    private let cache: ClientCache
    private let events: SecurityEventRecorder
    private let now: @Sendable () -> Date

    /// Manages the clients of `store`, forgetting each changed one in `cache`; changes recorded by `events`.
    package init(
        store: any ClientStore, cache: ClientCache, events: SecurityEventRecorder, now: @escaping @Sendable () -> Date
    ) {
        (self.store, self.cache, self.events, self.now) = (store, cache, events, now)
    }

    /// Every managed client, as stored.
    package func list() async throws(StorageError) -> [ClientRecord] {
        try await store.clients().filter { !SeedClients.isInternal($0.id) }
    }

    /// The managed client `id`, as stored; `nil` when there is none (Limen Server's own are none).
    package func client(id: String) async throws(StorageError) -> ClientRecord? {
        guard !SeedClients.isInternal(id) else { return nil }
        return try await store.client(id: id)
    }

    /// Registers the client `request` asks for, recorded as `admin.client_created` from `origin`; the client and, for a
    /// confidential one, its secret (shown once: only its hash is kept). A taken ID is refused.
    package func register(
        _ request: AdminClientRequest, origin: RequestOrigin
    ) async throws(AdminError) -> (client: ClientRecord, secret: String?) {
        let (client, secret) = try request.record(now: now())
        let records = events.records([SecurityEvent(.adminClientCreated, client: client.id)], from: origin)
        let inserted = try await AdminError.storage { () throws(StorageError) in
            try await store.insertClientIfAbsent(client, recording: records)
        }
        guard inserted else { throw .client(.alreadyExists(client.id), field: "client_id") }
        cache.forget(id: client.id)
        return (client, secret)
    }

    /// Changes the settings `patch` gives of the managed client `id`, checked as a registration is, recorded as
    /// `admin.client_updated` (details: the names of the fields given) from `origin`; the client as changed, or `nil`
    /// when there is no such client. An empty patch changes and records nothing.
    package func update(
        id: String, _ patch: AdminClientPatch, origin: RequestOrigin
    ) async throws(AdminError) -> ClientRecord? {
        guard let client = try await AdminError.storage({ () throws(StorageError) in try await self.client(id: id) })
        else {
            return nil
        }
        let fields = patch.changedFields
        guard !fields.isEmpty else { return client }
        let changed = try patch.applied(to: client)
        let records = events.records(
            [SecurityEvent(.adminClientUpdated, client: id, details: .changed(fields))], from: origin)
        return try await saved(id) { () throws(StorageError) in
            try await store.updateClientSettings(changed, recording: records) ? changed : nil
        }
    }

    /// Replaces the branding of the managed client `id` by `branding` (`nil` removes it), recorded as
    /// `admin.client_updated` (details: `branding`) from `origin`; the client as changed, or `nil` when there is none.
    package func updateBranding(
        id: String, _ branding: ClientBranding?, origin: RequestOrigin
    ) async throws(AdminError) -> ClientRecord? {
        guard !SeedClients.isInternal(id) else { return nil }
        let records = events.records(
            [SecurityEvent(.adminClientUpdated, client: id, details: .changed([.branding]))], from: origin)
        return try await saved(id) { () throws(StorageError) in
            guard try await store.updateClientBranding(id: id, branding: branding, recording: records) else {
                return nil
            }
            return try await store.client(id: id)
        }
    }

    /// Gives the managed confidential client `id` a new secret, returned to be shown once (only its hash is kept),
    /// recorded as `admin.client_secret_rotated` from `origin`: the old secret authenticates no more (on another node,
    /// within its ``ClientCache/timeToLive``). `nil` when there is no such client; a public client, which has no
    /// secret, is refused.
    package func rotateSecret(id: String, origin: RequestOrigin) async throws(AdminError) -> String? {
        guard let client = try await AdminError.storage({ () throws(StorageError) in try await self.client(id: id) })
        else {
            return nil
        }
        guard client.kind == .confidential else {
            throw .invalidRequest("a public client has no secret to rotate")
        }
        let secret = ClientSecret.generate()
        let records = events.records([SecurityEvent(.adminClientSecretRotated, client: id)], from: origin)
        let replaced = try await saved(id) { () throws(StorageError) in
            try await store.replaceClientSecret(id: id, secretHash: ClientSecret.hash(secret), recording: records)
        }
        return replaced ? secret : nil
    }

    /// Runs the store call `change` to client `id`, then forgets the cached client.
    private func saved<Value>(
        _ id: String, _ change: () async throws(StorageError) -> Value
    ) async throws(AdminError) -> Value {
        defer { cache.forget(id: id) }
        return try await AdminError.storage(change)
    }
}
