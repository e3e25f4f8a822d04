import Foundation
import HTTPTypes
import LimenTestSupport
import Logging
import SQLiteNIO
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

/// Issue 25 §1.3: the disk under SQLite fills. `PRAGMA max_page_count` at the file's current size makes SQLite answer
/// `SQLITE_FULL` exactly as a full disk does, without root or a small file system.
@Suite("The disk fills under SQLite: writes answer 503, reads go on, nothing is corrupted, writes resume")
struct DiskFullTests {
    @Test("a store that cannot grow fails writes as unavailable, logs storage.disk_full with the file, keeps reading")
    func storeOnAFullDisk() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await Self.fillAndFree(at: directory.path + "/limen.sqlite", fill: Self.capAtCurrentSize, free: Self.uncap)
    }

    /// Opens a store at `path`, lets `fill` fill its disk, writes until a write is refused and checks the refusal
    /// (unavailable, logged as `storage.disk_full` with the file), that reads go on, the refused write left nothing and
    /// the file is whole; then lets `free` give space back and checks that the refused write now succeeds.
    static func fillAndFree(
        at path: String,
        fill: (SQLiteStore) async throws -> Void,
        free: (SQLiteStore) async throws -> Void
    ) async throws {
        let recorded = RecordedLines()
        let store = try await SQLiteStore.open(path: path, logger: recorded.logger)
        do {
            try await store.migrate()
            let before = UserRecord(
                id: "before", email: "before@example.com", createdAt: Date(timeIntervalSince1970: 0))
            try await store.insertUserIfAbsent(before)
            try await fill(store)

            var refused: UserRecord?
            for index in 0..<5_000 {
                let user = Self.user(index)
                do {
                    try await store.insertUserIfAbsent(user)
                } catch {
                    guard case .unavailable = error else { throw error }
                    refused = user
                    break
                }
            }
            let user = try #require(refused, "no write was refused on a full disk")
            let line = try #require(recorded.first(startingWith: "The disk is full"))
            #expect(line.metadata["code"] == "storage.disk_full")
            #expect("\(line.metadata["path"] ?? "")".hasSuffix("/limen.sqlite"))

            #expect(try await store.user(id: before.id)?.email == before.email, "reads go on")
            #expect(try await store.user(id: user.id) == nil, "the refused write left nothing")
            #expect(try await Self.integrity(of: store) == "ok")

            try await free(store)
            try await store.insertUserIfAbsent(user)
            #expect(try await store.user(id: user.id)?.email == user.email, "writes resume once space returns")
            #expect(try await Self.integrity(of: store) == "ok")
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test("on a full disk a refresh answers 503 and userinfo 200; once space returns the same token refreshes")
    func serverOnAFullDisk() async throws {
        try await TokenFixture.run(on: .sqlite) { fixture in
            let store = try #require(fixture.provider.store as? SQLiteStore)
            let signedIn = try await fixture.signIn()
            let accessToken = try #require(signedIn["access_token"])
            var token = try #require(signedIn["refresh_token"])
            try await Self.capAtCurrentSize(store)

            var refused: RecordedResponse?
            for _ in 0..<2_000 {
                let answer = try await fixture.refresh(token)
                guard answer.status == .ok else {
                    refused = answer
                    break
                }
                token = try #require(answer["refresh_token"])
            }
            let answer = try #require(refused, "no refresh was refused on a full disk")
            #expect(answer.status == .serviceUnavailable, "\(answer.json)")
            #expect(answer["error"] == "temporarily_unavailable")
            #expect(answer.headers[.retryAfter] == "1")

            #expect(try await fixture.userInfo(accessToken).status == .ok, "reads go on")
            #expect(try await Self.integrity(of: store) == "ok")

            try await Self.uncap(store)
            let resumed = try await fixture.refresh(token)
            #expect(resumed.status == .ok, "the refused refresh lost the session: \(resumed.json)")
        }
    }

    /// A user whose row takes room, so a full page comes soon.
    private static func user(_ index: Int) -> UserRecord {
        UserRecord(
            id: "user-\(index)", email: "user-\(index)@example.com", name: String(repeating: "n", count: 400),
            createdAt: Date(timeIntervalSince1970: 0))
    }

    /// Lets the database file grow no further than it is: SQLite then answers `SQLITE_FULL` as on a full disk.
    private static func capAtCurrentSize(_ store: SQLiteStore) async throws {
        let pages = try #require(try await store.query("PRAGMA page_count").first?.column("page_count")?.integer)
        try await store.query("PRAGMA max_page_count = \(pages)")
    }

    /// Gives the database file room again.
    private static func uncap(_ store: SQLiteStore) async throws {
        try await store.query("PRAGMA max_page_count = 1073741823")
    }

    /// `PRAGMA integrity_check`'s answer.
    private static func integrity(of store: SQLiteStore) async throws -> String? {
        try await store.query("PRAGMA integrity_check").first?.column("integrity_check")?.string
    }
}
