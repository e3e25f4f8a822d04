import Foundation
import LimenServerStorage
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("SQLite store: its connection has its own thread, so a blocked shared pool cannot hold it up")
struct SQLiteConnectionThreadTests {
    @Test("a file store opens, migrates and answers while every thread of NIOThreadPool.singleton is busy")
    func answersWhileTheSharedPoolIsBusy() async throws {
        let threads = NIOSingletons.blockingPoolThreadCountSuggestion
        // 0: the jobs hold their threads; 1: the test let them go. Each job gives up on its own only after
        // `holdSeconds`: long enough that a store slowed down by a loaded machine (every test runs at once, and each
        // migration waits for its fsync) still finishes first, short enough that a store which does wait for the
        // shared pool fails this test instead of hanging the run.
        let holdSeconds = 300.0
        let release = ConditionLock(value: 0)
        // 1 once every job is running.
        let allStarted = ConditionLock(value: 0)
        let startedCount = NIOLockedValueBox(0)
        let releasedByTimeout = NIOLockedValueBox(false)
        for _ in 0..<threads {
            NIOThreadPool.singleton.submit { _ in
                if startedCount.withLockedValue({ count in
                    count += 1
                    return count == threads
                }) {
                    allStarted.lock()
                    allStarted.unlock(withValue: 1)
                }
                if release.lock(whenValue: 1, timeoutSeconds: holdSeconds) {
                    release.unlock()
                } else {
                    releasedByTimeout.withLockedValue { $0 = true }
                }
            }
        }
        try #require(allStarted.lock(whenValue: 1, timeoutSeconds: holdSeconds))
        allStarted.unlock()

        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try await SQLiteStore.open(path: directory.path + "/limen.sqlite")
        try await store.migrate()
        try await store.ping()
        await store.close()

        release.lock()
        release.unlock(withValue: 1)
        #expect(releasedByTimeout.withLockedValue { $0 } == false, "the store waited for the shared pool")
    }
}
