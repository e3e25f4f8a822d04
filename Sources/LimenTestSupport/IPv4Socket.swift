import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One TCP socket aimed at an IPv4 address, for tests that ask the kernel directly whether a port is free (a bind) or
/// whether anything listens there (a connect).
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public enum IPv4Socket {
    /// What the call on the socket returned, and `errno` right after it.
    public struct Outcome: Sendable, Equatable {
        /// The call's result: 0 on success.
        public var result: Int32
        /// `errno` after the call (meaningful when ``result`` is not 0).
        public var error: Int32
    }

    /// Whether a socket of this process is bound to IPv4 `port` (its descriptors in `/proc/self/fd`, by
    /// `getsockname`): what "closed the port" means for code in this process, whatever a child process started
    /// meanwhile holds of an inherited copy (Foundation's `Process` closes a child's descriptors from a list it makes
    /// before starting it, so a socket opened in between can outlive its closing in the parent).
    public static func isHeldByThisProcess(port: UInt16) -> Bool {
        !descriptors(boundTo: port).isEmpty
    }

    /// This process's descriptors of sockets bound to IPv4 `port` (from `/proc/self/fd`, by `getsockname`).
    public static func descriptors(boundTo port: UInt16) -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        return names.compactMap { Int32($0) }.filter { descriptor in
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let result = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            return result == 0 && address.sin_family == sa_family_t(AF_INET)
                && UInt16(bigEndian: address.sin_port) == port
        }
    }

    /// Makes a TCP socket, runs `call` (`bind`, `connect`) with `host`:`port`, closes the socket and returns what the
    /// call gave; `nil` when `host` is no IPv4 address or no socket could be made.
    public static func attempt(
        _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32,
        host: String,
        port: UInt16
    ) -> Outcome? {
        var address = sockaddr_in()
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else { return nil }
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                let result = call(descriptor, socketAddress, socklen_t(MemoryLayout<sockaddr_in>.size))
                return Outcome(result: result, error: errno)
            }
        }
    }
}
