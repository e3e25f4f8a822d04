import Foundation
import Limen
import LimenTestSupport
import Testing

@testable import LimenLoopback

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The listener and child processes: a child started while a sign-in waits must not get a copy of the listener (the
/// port would stay open after the agent closed it). Linux: the check reads `/proc`.
@Suite("LoopbackUserAgent and child processes", .timeLimit(.minutes(1)))
struct LoopbackInheritanceTests {
    @Test("a child started while the agent listens does not inherit the listener's socket")
    func childDoesNotInheritListener() async throws {
        let agent = try await LoopbackUserAgent.start(port: nil, path: "/callback", opener: .custom { _ in })
        let port = agent.port
        // `posix_spawn` with no file actions hands the child every descriptor not marked close-on-exec (Foundation's
        // `Process` closes more, so it would hide the leak).
        let child = try SpawnedChild(arguments: ["/bin/sleep", "30"])
        defer { child.stop() }
        // What the descriptors point to, as `/proc` names them (`socket:[inode]`): the same for a copy in the child.
        let listener = Set(IPv4Socket.descriptors(boundTo: port).compactMap { Self.target(of: "/proc/self/fd/\($0)") })
        let inChild = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(child.pid)/fd").compactMap {
            Self.target(of: "/proc/\(child.pid)/fd/\($0)")
        }
        await agent.stop()
        #expect(!listener.isEmpty)
        #expect(listener.isDisjoint(with: inChild), "the child holds the listener")
    }

    /// Where the symbolic link at `path` points.
    private static func target(of path: String) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: path)
    }

    @Test("marking finds the listener's socket by its port")
    func marksTheListener() async throws {
        let agent = try await LoopbackUserAgent.start(port: nil, path: "/callback", opener: .custom { _ in })
        #expect(CloseOnExec.markSockets(boundTo: agent.port) == 1)
        await agent.stop()
        #expect(CloseOnExec.markSockets(boundTo: agent.port) == 0)
    }
}

/// A child process started with `posix_spawn` and nothing closed, killed by ``stop()``.
private struct SpawnedChild {
    let pid: pid_t

    init(arguments: [String]) throws {
        var pid = pid_t()
        let argv = arguments.map { strdup($0) } + [nil]
        defer {
            for argument in argv { free(argument) }
        }
        let result = posix_spawn(&pid, arguments[0], nil, nil, argv, environ)
        try #require(result == 0, "posix_spawn failed: \(result)")
        self.pid = pid
    }

    /// Kills the child and waits for it.
    func stop() {
        _ = kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}
