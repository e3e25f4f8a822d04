import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Starts a `Process` around a crash of swift-corelibs-foundation on Linux (swiftlang/swift-corelibs-foundation#5472,
/// in Swift 6.3.1): `Process.run()` lists `/proc/self/fd` to learn how many descriptors the child must close, and
/// copies each entry's whole 256-byte `d_name` although glibc's `readdir` keeps the entries packed (24 bytes each) in
/// a 32 KiB buffer. For the last entries of a full buffer the copy reads past its end, and the process dies of SIGSEGV
/// when that lies at the top of a heap. The suites hold thousands of descriptors at once (servers, databases, pipes),
/// so their count passes through those values; this keeps it out of them while a process starts.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public enum ProcessStart {
    /// The entries of `/proc/self/fd` one `readdir` buffer holds: 32,768 bytes of 24-byte entries.
    static let entriesPerBuffer = 1365
    /// How far from the end of a buffer the last entry must be (the over-read reaches about 11 entries back; the rest
    /// is room for descriptors other threads open or close meanwhile).
    static let margin = 40

    private static let lock = NSLock()

    /// `process.run()`, with the descriptor count moved out of the risky values first (Linux), one start at a time.
    public static func run(_ process: Process) throws {
        #if os(Linux)
            lock.lock()
            defer { lock.unlock() }
            var padding: [Int32] = []
            defer { for descriptor in padding { close(descriptor) } }
            while isRisky(openDescriptors: openDescriptorCount()), padding.count < 2 * margin {
                let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
                guard descriptor >= 0 else { break }
                padding.append(descriptor)
            }
        #endif
        try process.run()
    }

    /// Whether the last of the `/proc/self/fd` entries (`.`, `..` and one per descriptor) for `openDescriptors` lands
    /// near the end of a full `readdir` buffer.
    static func isRisky(openDescriptors: Int) -> Bool {
        let inLastBuffer = (openDescriptors + 2) % entriesPerBuffer
        return inLastBuffer == 0 || inLastBuffer > entriesPerBuffer - margin
    }

    /// The descriptors open now, as `/proc/self/fd` lists them (through FileManager, which reads entries safely).
    private static func openDescriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
    }
}
