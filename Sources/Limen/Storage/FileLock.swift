import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory, exclusive `flock(2)` lock on a file, for coordinating processes that share storage.
///
/// Every ``withLock(_:)`` call opens the lock file anew, so two calls exclude each other even within one
/// process (each has its own open file description). An uncontended lock is taken without leaving the
/// calling task; a contended one is waited for on a dedicated thread, never on Swift's cooperative pool.
/// The wait cannot be cancelled: it lasts until the holder releases, which the kernel does at the latest
/// when the holding process exits.
///
/// ```swift
/// let lock = FileLock(path: directory.appending(component: "app.lock").path(percentEncoded: false))
/// try await lock.withLock { try await refreshTokens() }
/// ```
public struct FileLock: Sendable {
    /// The path of the lock file; it is created with mode `0600` if missing and never removed.
    public let path: String
    private let onContention: (@Sendable () -> Void)?

    /// Creates a lock on the file at `path`. Nothing is opened until ``withLock(_:)``.
    public init(path: String) {
        self.init(path: path, onContention: nil)
    }

    /// Creates a lock that calls `onContention` when an acquisition finds the lock held and starts to wait.
    init(path: String, onContention: (@Sendable () -> Void)?) {
        self.path = path
        self.onContention = onContention
    }

    /// Runs `body` while holding the lock, and releases it when `body` returns or throws.
    ///
    /// Throws ``StorageError/lockFailed(path:errno:)`` when the lock file cannot be opened or locked, and
    /// otherwise whatever `body` throws.
    public func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let descriptor = try await acquire()
        defer {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
        return try await body()
    }

    private func acquire() async throws(StorageError) -> Int32 {
        let flags = O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC
        let descriptor = PrivateFile.retryingOnInterrupt { open(path, flags, 0o600) }
        guard descriptor >= 0 else { throw .lockFailed(path: path, errno: errno) }
        var failure: Int32 = 0
        if PrivateFile.retryingOnInterrupt({ flock(descriptor, LOCK_EX | LOCK_NB) }) != 0 {
            failure = errno
            if failure == EWOULDBLOCK {
                onContention?()
                failure = await Self.waitForLock(on: descriptor)
            }
        }
        guard failure == 0 else {
            close(descriptor)
            throw .lockFailed(path: path, errno: failure)
        }
        return descriptor
    }

    /// Blocks in `flock(LOCK_EX)` on a thread of its own and resumes with `0` or the `errno` it failed with.
    private static func waitForLock(on descriptor: Int32) async -> Int32 {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                let result = PrivateFile.retryingOnInterrupt { flock(descriptor, LOCK_EX) }
                continuation.resume(returning: result == 0 ? 0 : errno)
            }
            thread.name = "limen.file-lock"
            thread.start()
        }
    }
}
