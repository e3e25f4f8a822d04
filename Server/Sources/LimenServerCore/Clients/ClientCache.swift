import Foundation
import LimenServerStorage
import NIOConcurrencyHelpers

/// Client records recently read from the store, kept briefly so that client authentication at `/token`,
/// `/introspect` and `/revoke`, and a native flow's start and consent check, do not read the store on every request.
///
/// It holds records, never verdicts: the presented secret is still compared with the record's hash in constant time
/// on every request. A record is served for at most ``timeToLive`` by the provider's clock, and at most ``capacity``
/// records are kept (expired ones are dropped first, then the oldest). Absent clients are not remembered.
///
/// Consistency: a change made through this node (the admin API) calls ``forget(id:)`` and is seen at once. A change
/// made elsewhere — another node sharing the store, or `limen-server clients remove` run against the store — is seen
/// by this node within ``timeToLive``.
public final class ClientCache: Sendable {
    /// How long a record read from the store is served.
    public static let defaultTimeToLive: TimeInterval = 5
    /// How many records are kept by default.
    public static let defaultCapacity = 1024

    private struct Entry {
        var record: ClientRecord
        var readAt: Date
    }

    private struct State {
        var entries: [String: Entry] = [:]
        /// Counts ``forget(id:)`` calls, so a read that raced with one does not store what it read.
        var generation = 0
    }

    /// How long a record read from the store is served.
    public let timeToLive: TimeInterval
    /// How many records are kept at most.
    public let capacity: Int
    private let now: @Sendable () -> Date
    private let state = NIOLockedValueBox(State())

    /// Creates an empty cache on the provider's clock `now`.
    public init(
        timeToLive: TimeInterval = defaultTimeToLive,
        capacity: Int = defaultCapacity,
        now: @escaping @Sendable () -> Date
    ) {
        self.timeToLive = timeToLive
        self.capacity = max(1, capacity)
        self.now = now
    }

    /// Removes client `id` from `store` (with its codes, grants and their tokens) and forgets its cached record, so this
    /// node refuses it at once; returns whether it existed.
    package func remove(id: String, from store: any ClientStore, recording events: [SecurityEventRecord] = [])
        async throws(StorageError) -> Bool
    {
        defer { forget(id: id) }
        return try await store.deleteClient(id: id, recording: events)
    }

    /// The client `id`: the cached record while it is fresh, else the store's (which is then cached).
    package func client(id: String, in store: any ClientStore) async throws(StorageError) -> ClientRecord? {
        let readAt = now()
        let (fresh, generation) = state.withLockedValue { state in
            (state.entries[id].flatMap { isFresh($0, at: readAt) ? $0.record : nil }, state.generation)
        }
        if let fresh { return fresh }
        guard let record = try await store.client(id: id) else { return nil }
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            if state.entries[id] == nil, state.entries.count >= capacity { makeRoom(in: &state, at: readAt) }
            state.entries[id] = Entry(record: record, readAt: readAt)
        }
        return record
    }

    /// Drops the record of `id`, after this node changed or removed the client.
    public func forget(id: String) {
        state.withLockedValue { state in
            state.entries[id] = nil
            state.generation &+= 1
        }
    }

    private func isFresh(_ entry: Entry, at date: Date) -> Bool {
        entry.readAt <= date && date < entry.readAt.addingTimeInterval(timeToLive)
    }

    /// Drops the expired records, or when none has expired the oldest one.
    private func makeRoom(in state: inout State, at date: Date) {
        state.entries = state.entries.filter { isFresh($0.value, at: date) }
        if state.entries.count >= capacity, let oldest = state.entries.min(by: { $0.value.readAt < $1.value.readAt }) {
            state.entries[oldest.key] = nil
        }
    }
}
