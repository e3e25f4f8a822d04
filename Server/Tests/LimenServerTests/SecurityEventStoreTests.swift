import Foundation
import Testing

@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Store conformance: security events")
struct SecurityEventStoreTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// An event of `type` about `user` at `now` plus `offset` seconds, with the id `id`.
    private func event(
        _ id: String, _ type: SecurityEventType = .userCreated, user: String? = "ada", offset: Double = 0
    )
        -> SecurityEventRecord
    {
        SecurityEventRecord(
            id: id, type: type.rawValue, time: now.addingTimeInterval(offset), user: user, client: nil, actor: nil,
            ip: "192.0.2.1", userAgent: "test", requestID: "req-1", details: SecurityEventDetails.none.json)
    }

    private func user(_ id: String) -> UserRecord {
        UserRecord(id: id, email: "\(id)@example.com", createdAt: now)
    }

    private func all(_ store: any Store) async throws -> [SecurityEventRecord] {
        try await store.securityEvents(SecurityEventFilter(), limit: 1000)
    }

    @Test(
        "a change writes its events with it, and a change that does not happen writes none",
        arguments: StoreUnderTest.allCases)
    func changeAndEvents(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            #expect(try await store.insertUserIfAbsent(user("ada"), recording: [event("e1"), event("e2")]))
            #expect(try await all(store).map(\.id).sorted() == ["e1", "e2"])
            #expect(try await store.insertUserIfAbsent(user("ada"), recording: [event("e3")]) == false)
            #expect(try await store.deleteUser(id: "nobody", recording: [event("e4")]) == false)
            #expect(try await all(store).map(\.id).sorted() == ["e1", "e2"])
            #expect(try await store.deleteUser(id: "ada", recording: [event("e5", .userDeleted)]))
            #expect(try await store.user(id: "ada") == nil)
            #expect(try await all(store).map(\.id).sorted() == ["e1", "e2", "e5"], "events outlive their user")
        }
    }

    @Test("an event that cannot be written undoes the change it records", arguments: StoreUnderTest.allCases)
    func failingEventUndoesChange(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertSecurityEvents([event("taken")])
            // The second event's id is taken: the insert fails after the user's row and the first event were written.
            await #expect(throws: StorageError.self) {
                try await store.insertUserIfAbsent(user("grace"), recording: [event("fresh"), event("taken")])
            }
            #expect(try await store.user(id: "grace") == nil)
            try await store.insertUserIfAbsent(user("ada"))
            await #expect(throws: StorageError.self) {
                try await store.deleteUser(id: "ada", recording: [event("taken")])
            }
            #expect(try await store.user(id: "ada") != nil)
            #expect(try await all(store).map(\.id) == ["taken"])
        }
    }

    @Test("a change whose statement fails writes no event", arguments: StoreUnderTest.allCases)
    func failingChangeWritesNoEvent(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertUserIfAbsent(user("ada"))
            try await store.insertUserIfAbsent(user("grace"))
            // Grace's address is taken by Ada's row: the unique index refuses the change itself.
            let change: SQLQuery = "UPDATE users SET email = \("ada@example.com") WHERE id = \("grace") RETURNING id"
            await #expect(throws: StorageError.self) {
                try await execute(change, recording: [event("e1"), event("e2")], in: store)
            }
            #expect(try await store.user(id: "grace")?.email == "grace@example.com")
            #expect(try await all(store).isEmpty)
        }
    }

    /// Runs the change `query` with `events` in `store`'s dialect.
    private func execute(_ query: SQLQuery, recording events: [SecurityEventRecord], in store: any Store)
        async throws(StorageError)
    {
        switch store {
        case let sqlite as SQLiteStore: try await sqlite.execute(query, recording: events)
        case let postgres as PostgresStore: try await postgres.execute(query, recording: events)
        default: Issue.record("a store of another dialect")
        }
    }

    @Test(
        "concurrent changes commit with their events, and a failing one undoes only its own",
        arguments: StoreUnderTest.allCases)
    func concurrentUnits(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertSecurityEvents([event("taken")])
            let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for index in 0..<12 {
                    group.addTask {
                        // Every third change records an event whose id is taken, so it must fail and leave nothing.
                        let id = index % 3 == 0 ? "taken" : "e\(index)"
                        do {
                            try await store.insertUserIfAbsent(
                                user("u\(index)"), recording: [event(id, user: "u\(index)")])
                            return (index, true)
                        } catch {
                            return (index, false)
                        }
                    }
                }
                return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
            }
            for index in 0..<12 {
                #expect(outcomes[index] == (index % 3 != 0))
                #expect((try await store.user(id: "u\(index)") != nil) == (index % 3 != 0))
            }
            let written = try await all(store).map(\.id)
            #expect(Set(written) == Set(["taken"] + (0..<12).filter { $0 % 3 != 0 }.map { "e\($0)" }))
        }
    }

    @Test("events are read newest first, filtered, and paged from a position", arguments: StoreUnderTest.allCases)
    func filtersAndPages(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            try await store.insertSecurityEvents([
                event("a", .userCreated, user: "ada", offset: 0),
                event("b", .userSignedIn, user: "ada", offset: 10),
                event("c", .userSignedIn, user: "grace", offset: 10),
                event("d", .userDeleted, user: "grace", offset: 20),
            ])
            #expect(try await all(store).map(\.id) == ["d", "c", "b", "a"])
            #expect(
                try await store.securityEvents(SecurityEventFilter(type: "user.signed_in"), limit: 10).map(\.id)
                    == ["c", "b"])
            #expect(
                try await store.securityEvents(SecurityEventFilter(user: "grace"), limit: 10).map(\.id) == ["d", "c"])
            let window = SecurityEventFilter(since: now.addingTimeInterval(10), until: now.addingTimeInterval(20))
            #expect(try await store.securityEvents(window, limit: 10).map(\.id) == ["c", "b"])
            let first = try await store.securityEvents(SecurityEventFilter(), limit: 2)
            #expect(first.map(\.id) == ["d", "c"])
            let after = SecurityEventFilter(before: SecurityEventPosition(time: first[1].time, id: first[1].id))
            #expect(try await store.securityEvents(after, limit: 2).map(\.id) == ["b", "a"])
            let read = try #require(try await all(store).last)
            #expect(read == event("a", .userCreated, user: "ada", offset: 0))
        }
    }

    @Test(
        "the retention sweep deletes events older than the retention and keeps the rest",
        arguments: StoreUnderTest.allCases)
    func retention(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { (store: any Store) async throws in
            let retention = ServerSetting.defaultAuditRetention
            try await store.insertSecurityEvents([
                event("old", offset: -retention - 1), event("kept", offset: -retention + 60), event("new"),
            ])
            let sweeper = ExpirySweeper(store: store, keepSecurityEventsFor: retention, now: { now })
            await sweeper.sweepOnce()
            #expect(try await all(store).map(\.id) == ["new", "kept"])
        }
    }
}
