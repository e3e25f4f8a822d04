import Foundation
import LimenServerStorage
import LimenWire
import NIOConcurrencyHelpers

/// The app schema as last read from the store, compiled (its regexes included), served for a few seconds so that
/// profile writes, `/userinfo` and `GET /v1/app` do not read and compile it on every request.
///
/// Consistency, as ``ClientCache``: a change through this node (the admin API, the configuration file at start) calls
/// ``forget()`` and is seen at once; a change made through another node sharing the store is seen within
/// ``timeToLive``.
public final class AppSchemaCache: Sendable {
    /// How long a schema read from the store is served.
    public static let timeToLive: TimeInterval = 5

    private struct State {
        var schema: ProfileSchema?
        var readAt = Date.distantPast
        /// Counts ``forget()`` calls, so a read that raced with one does not store what it read.
        var generation = 0
    }

    private let now: @Sendable () -> Date
    private let state = NIOLockedValueBox(State())

    /// An empty cache on the provider's clock `now`.
    package init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The app schema: the cached one while it is fresh, else the store's (``ProfileSchema/empty`` when none is set).
    package func schema(in store: any ProfileStore) async throws(StorageError) -> ProfileSchema {
        let readAt = now()
        let (fresh, generation) = state.withLockedValue { state in
            let isFresh = state.readAt <= readAt && readAt < state.readAt.addingTimeInterval(Self.timeToLive)
            return (isFresh ? state.schema : nil, state.generation)
        }
        if let fresh { return fresh }
        let schema =
            try await store.appSchema().map { record throws(StorageError) in
                try ProfileSchema(stored: record.document)
            } ?? .empty
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            state.schema = schema
            state.readAt = readAt
        }
        return schema
    }

    /// Drops the cached schema, after this node changed it.
    public func forget() {
        state.withLockedValue { state in
            state.schema = nil
            state.generation &+= 1
        }
    }
}

extension ProfileSchema {
    /// The schema stored as `document` (JSON text written by ``ProfileSchema/document``).
    package init(stored document: String) throws(StorageError) {
        do {
            self = try ProfileSchema(parsing: try JSONValue(parsing: Array(document.utf8)))
        } catch {
            throw .corruptRow("the stored app schema is not valid: \(error)")
        }
    }
}
