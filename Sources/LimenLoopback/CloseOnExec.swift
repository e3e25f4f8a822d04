import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps the loopback listener out of child processes. FlyingFox opens its socket without `FD_CLOEXEC`, so a program
/// that starts a child while a sign-in waits (a CLI running a helper, a test runner) would hand the child a copy of the
/// listener: the port would stay open, and answer nobody, after the agent closed it. FlyingFox has no hook for the
/// flag, so the listener's descriptor is found by its address once it listens, and marked.
enum CloseOnExec {
    /// Where this process's descriptors are listed.
    private static let descriptorDirectory =
        FileManager.default.fileExists(atPath: "/proc/self/fd") ? "/proc/self/fd" : "/dev/fd"

    /// Sets `FD_CLOEXEC` on every socket of this process bound to IPv4 `port` (the listener, and any connection it
    /// accepted already); returns how many it marked.
    @discardableResult
    static func markSockets(boundTo port: UInt16) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: descriptorDirectory) else { return 0 }
        var marked = 0
        for descriptor in names.compactMap({ Int32($0) }) where localPort(of: descriptor) == port {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0, fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) == 0 { marked += 1 }
        }
        return marked
    }

    /// The local port of `descriptor` when it is an IPv4 socket.
    private static func localPort(of descriptor: Int32) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0, address.sin_family == sa_family_t(AF_INET) else { return nil }
        return UInt16(bigEndian: address.sin_port)
    }
}
