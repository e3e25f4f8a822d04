import Logging

/// The exclusive access of one store: callers in this process queue in order on an ``AsyncMutex``, and the one at
/// the head also takes an advisory ``FileLock`` that every process sharing the lock file respects.
///
/// Shared by ``EncryptedFileStore`` (lock file next to its entries) and `KeychainStore` (lock file in the app-group
/// container that the app and its extensions share).
struct ProcessLock: Sendable {
    /// The directory holding the lock file, created `0700` when missing; `nil` coordinates this process only.
    let directoryPath: String?
    /// The lock file's name inside ``directoryPath``.
    let fileName: String
    private let exclusive = AsyncMutex()
    private let onContention: (@Sendable () -> Void)?
    private static let logger = Logger(label: "limen.storage")

    /// Creates a lock on `<directoryPath>/<fileName>`, or an in-process lock only when `directoryPath` is `nil`;
    /// `onContention` is called (besides a debug log) whenever the lock file is found held and the wait begins.
    init(directoryPath: String?, fileName: String, onContention: (@Sendable () -> Void)? = nil) {
        self.directoryPath = directoryPath.map(Self.trimmingTrailingSlash)
        self.fileName = fileName
        self.onContention = onContention
    }

    /// Runs `body` holding the in-process lock and, when there is a lock directory, the lock file.
    ///
    /// Throws ``StorageError/io(path:errno:)`` when the directory cannot be created,
    /// ``StorageError/lockFailed(path:errno:)`` when the file cannot be locked, and otherwise whatever `body` throws.
    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        guard let directoryPath else { return try await exclusive.withLock(body) }
        try PrivateFile.makeDirectory(directoryPath)
        let lockPath = "\(directoryPath)/\(fileName)"
        let lock = FileLock(path: lockPath) { [onContention] in
            Self.logger.debug("lock held by another process; waiting", metadata: ["lock": "\(lockPath)"])
            onContention?()
        }
        return try await exclusive.withLock { try await lock.withLock(body) }
    }

    /// `path` without a trailing `/`, except for the root itself.
    static func trimmingTrailingSlash(_ path: String) -> String {
        path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }
}
