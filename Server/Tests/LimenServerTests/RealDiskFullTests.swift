import Foundation
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServerStorage

/// Issue 25 §1.3 on a real full disk: SQLite on a 4 MB tmpfs that a ballast file fills (``DiskFullTests`` does the same
/// without root, through `PRAGMA max_page_count`). Mounting needs root: without it the suite is skipped, with the
/// reason shown, unless `LIMEN_REQUIRE_PEERS=1`, which makes it run and fail instead.
@Suite(
    "SQLite on a tmpfs that fills: writes fail as unavailable, reads go on, nothing is corrupted, writes resume",
    .enabled(if: SmallFileSystem.unavailableReason == nil, Comment(rawValue: SmallFileSystem.unavailableReason ?? "")))
struct RealDiskFullTests {
    @Test("a full tmpfs refuses writes as unavailable, logs storage.disk_full; freed, it takes them again")
    func fullFileSystem() async throws {
        try await SmallFileSystem.withMounted(megabytes: 4) { path in
            let ballast = path + "/ballast"
            try await DiskFullTests.fillAndFree(
                at: path + "/limen.sqlite", fill: { _ in SmallFileSystem.fill(ballast) },
                free: { _ in try FileManager.default.removeItem(atPath: ballast) })
        }
    }
}

/// A small tmpfs mounted for one test (root only).
enum SmallFileSystem {
    /// Why no tmpfs can be mounted here, or `nil` when one can; always `nil` with `LIMEN_REQUIRE_PEERS=1`, so CI fails
    /// instead of skipping. Tries a mount once, blocking: meant for a suite's `.enabled(if:)`.
    static let unavailableReason: String? = {
        if Peers.areRequired { return nil }
        guard getuid() == 0 else { return "mounting a tmpfs needs root" }
        let probe = NSTemporaryDirectory() + "limen-tmpfs-probe-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: probe) }
        guard (try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)) != nil,
            run("/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe])
        else { return "this machine does not allow mounting a tmpfs" }
        _ = run("/bin/umount", [probe])
        return nil
    }()

    /// Runs `body` with a tmpfs of `megabytes` mounted on a new folder, and unmounts it however `body` ends.
    static func withMounted(megabytes: Int, _ body: (String) async throws -> Void) async throws {
        let path = NSTemporaryDirectory() + "limen-tmpfs-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try #require(run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m", "tmpfs", path]), "mount failed")
        do {
            try await body(path)
        } catch {
            _ = run("/bin/umount", [path])
            throw error
        }
        #expect(run("/bin/umount", [path]))
    }

    /// Writes zeros to a new file at `path` until the file system has no room left.
    static func fill(_ path: String) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { return }
        defer { try? handle.close() }
        let chunk = Data(count: 64 * 1024)
        while (try? handle.write(contentsOf: chunk)) != nil {}
        let byte = Data(count: 1)
        while (try? handle.write(contentsOf: byte)) != nil {}
    }

    /// Whether `program` with `arguments` exits with status 0.
    private static func run(_ program: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? ProcessStart.run(process)) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
