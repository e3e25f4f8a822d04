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

    /// Registers the client `request` asks for, recorded as `admin.client_created` from `origin`; the client and, for a
    /// confidential one, its secret (shown once: only its hash is kept). A taken ID is refused.
    package func register(
        _ request: AdminClientRequest, origin: RequestOrigin
    ) async throws(AdminError) -> (client: ClientRecord, secret: String?) {
        let (client, secret) = try request.record(now: now())
        let records = events.records([SecurityEvent(.adminClientCreated, client: client.id)], from: origin)
        let inserted: Bool
        do throws(StorageError) {
            inserted = try await store.insertClientIfAbsent(client, recording: records)
        } catch {
            throw AdminError(error)
        }
        guard inserted else { throw .client(.alreadyExists(client.id), field: "client_id") }
        cache.forget(id: client.id)
        return (client, secret)
    }
}
