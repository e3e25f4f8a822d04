#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// POSIX file operations for files only their owner may access: created `0600` with no window in which
/// another user could open them, written atomically, and refused on reading when they are shared.
enum PrivateFile {
    /// Creates `path` and any missing parents with mode `0700`; an existing directory is left as it is.
    static func makeDirectory(_ path: String) throws(StorageError) {
        if mkdir(path, 0o700) == 0 { return }
        let failure = errno
        switch failure {
        case EEXIST:
            var status = stat()
            guard stat(path, &status) == 0 else { throw .io(path: path, errno: errno) }
            guard status.st_mode & S_IFMT == S_IFDIR else { throw .io(path: path, errno: ENOTDIR) }
        case ENOENT:
            let parent = parentDirectory(of: path)
            guard parent != path else { throw .io(path: path, errno: failure) }
            try makeDirectory(parent)
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else { throw .io(path: path, errno: errno) }
        default:
            throw .io(path: path, errno: failure)
        }
    }

    /// Returns the bytes of the regular file at `path`, or `nil` when there is no such file.
    ///
    /// Throws ``StorageError/insecurePermissions(path:)`` when the file is a symbolic link or not a regular
    /// file, is owned by another user, or grants any permission to group or others. The checks use the
    /// opened descriptor, so the file cannot be swapped between the check and the read.
    static func contents(at path: String) throws(StorageError) -> [UInt8]? {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT: return nil
            case ELOOP: throw .insecurePermissions(path: path)
            case let failure: throw .io(path: path, errno: failure)
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .io(path: path, errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
            status.st_mode & 0o077 == 0
        else {
            throw .insecurePermissions(path: path)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(status.st_size))
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retryingOnInterrupt { read(descriptor, buffer.baseAddress, buffer.count) }
            }
            guard count >= 0 else { throw .io(path: path, errno: errno) }
            guard count > 0 else { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// Creates the file `path` with mode `0600` (failing with `EEXIST` if it exists), writes `bytes` and
    /// flushes them to storage. A partly written file is removed.
    static func create(_ path: String, containing bytes: [UInt8]) throws(StorageError) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        let descriptor = retryingOnInterrupt { open(path, flags, 0o600) }
        guard descriptor >= 0 else { throw .io(path: path, errno: errno) }
        do throws(StorageError) {
            defer { close(descriptor) }
            try writeAll(bytes, to: descriptor, path: path)
            guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else {
                throw .io(path: path, errno: errno)
            }
        } catch {
            unlink(path)
            throw error
        }
    }

    /// Replaces the file `path` with `bytes` in one atomic step: the bytes go to `temporaryPath` (a new
    /// `0600` file in the same directory), are flushed, and the file is renamed over `path`.
    static func replace(_ path: String, with bytes: [UInt8], through temporaryPath: String)
        throws(StorageError)
    {
        try create(temporaryPath, containing: bytes)
        guard rename(temporaryPath, path) == 0 else {
            let failure = errno
            unlink(temporaryPath)
            throw .io(path: path, errno: failure)
        }
        try syncDirectory(containing: path)
    }

    /// Publishes `bytes` as the new file `path` unless it already exists, in one atomic step (the bytes are
    /// complete before the name appears). Returns `false`, changing nothing, when `path` already exists.
    static func publish(_ bytes: [UInt8], at path: String, through temporaryPath: String)
        throws(StorageError) -> Bool
    {
        try create(temporaryPath, containing: bytes)
        defer { unlink(temporaryPath) }
        guard link(temporaryPath, path) == 0 else {
            if errno == EEXIST { return false }
            throw .io(path: path, errno: errno)
        }
        try syncDirectory(containing: path)
        return true
    }

    /// Removes the file `path`; a missing file is not an error.
    static func remove(_ path: String) throws(StorageError) {
        guard unlink(path) == 0 else {
            if errno == ENOENT { return }
            throw .io(path: path, errno: errno)
        }
        try syncDirectory(containing: path)
    }

    /// Flushes the directory holding `path`, so a rename, link or unlink in it survives a power loss.
    private static func syncDirectory(containing path: String) throws(StorageError) {
        let directory = parentDirectory(of: path)
        let descriptor = retryingOnInterrupt { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .io(path: directory, errno: errno) }
        defer { close(descriptor) }
        guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else {
            throw .io(path: directory, errno: errno)
        }
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String)
        throws(StorageError)
    {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { buffer in
                retryingOnInterrupt { write(descriptor, buffer.baseAddress, buffer.count) }
            }
            guard written > 0 else { throw .io(path: path, errno: written < 0 ? errno : EIO) }
            offset += written
        }
    }

    private static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Repeats a system call that failed with `EINTR` (interrupted by a signal before doing anything).
    static func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
