import FlyingSocks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds a TCP port on 127.0.0.1 that nothing listens on, for servers that must be told their port.
public enum FreePort {
    /// Binds port 0, reads the port the system chose, and releases it.
    public static func find() throws -> UInt16 {
        let socket = try Socket(domain: AF_INET, type: .stream)
        defer { try? socket.close() }
        try socket.bind(to: .inet(ip4: "127.0.0.1", port: 0))
        guard case .ip4(_, let port) = try socket.sockname() else { throw TestServerError.notListening }
        return port
    }
}
