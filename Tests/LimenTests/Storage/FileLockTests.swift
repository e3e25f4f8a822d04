import Foundation
import Testing

@testable import Limen

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("FileLock", .timeLimit(.minutes(1)))
struct FileLockTests {
    private struct BodyFailure: Error {}

    /// Whether another open file description could take the lock right now, without waiting.
    private func isFree(_ path: String) -> Bool {
        let descriptor = open(path, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return flock(descriptor, LOCK_EX | LOCK_NB) == 0
    }

    @Test("a second lock on the same path starts its body only after the first body ended")
    func secondWaitsForFirst() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(component: "app.lock").path(percentEncoded: false)
            let log = EventLog()
            let (firstHolds, firstHoldsSignal) = AsyncStream<Void>.makeStream()
            let (releaseFirst, releaseFirstSignal) = AsyncStream<Void>.makeStream()
            let (secondWaits, secondWaitsSignal) = AsyncStream<Void>.makeStream()
            let first = FileLock(path: path)
            let second = FileLock(path: path, onContention: { secondWaitsSignal.yield() })

            async let firstRun: Void = first.withLock {
                await log.record("first started")
                firstHoldsSignal.yield()
                for await _ in releaseFirst { break }
                await log.record("first ended")
            }
            for await _ in firstHolds { break }
            #expect(!isFree(path))

            async let secondRun: Void = second.withLock {
                await log.record("second started")
                await log.record("second ended")
            }
            // The second lock found the file locked and is now blocked in flock on its own thread.
            for await _ in secondWaits { break }
            await log.record("first released")
            releaseFirstSignal.yield()

            try await firstRun
            try await secondRun
            #expect(
                await log.events == [
                    "first started", "first released", "first ended", "second started", "second ended",
                ]
            )
            #expect(isFree(path))
        }
    }

    @Test("a body that throws still releases the lock")
    func throwingBodyReleases() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(component: "app.lock").path(percentEncoded: false)
            await #expect(throws: BodyFailure.self) {
                try await FileLock(path: path).withLock { throw BodyFailure() }
            }
            #expect(isFree(path))
            let result = try await FileLock(path: path).withLock { 42 }
            #expect(result == 42)
        }
    }

    @Test("the lock file is created 0600")
    func lockFileIsPrivate() async throws {
        try await withTemporaryDirectory { directory in
            let url = directory.appending(component: "app.lock")
            try await FileLock(path: url.path(percentEncoded: false)).withLock {}
            #expect(try permissions(of: url) == 0o600)
        }
    }

    @Test("a lock file in a missing directory fails with lockFailed")
    func missingDirectory() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appending(component: "absent/app.lock").path(percentEncoded: false)
            await #expect(throws: StorageError.lockFailed(path: path, errno: ENOENT)) {
                try await FileLock(path: path).withLock {}
            }
        }
    }
}
