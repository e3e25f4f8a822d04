import FlyingSocks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds a TCP port on 127.0.0.1 that nothing listens on, for servers that must be told their port.
///
/// The port is drawn below the system's ephemeral range (Linux: 32768–60999, macOS: 49152–65535), so a server another
/// test starts on port 0 can never be handed the same port between this check and the caller's bind.
public enum FreePort {
    /// The ports drawn from: registered ports that no port-0 bind is given.
    static let candidates: Range<UInt16> = 20_000..<32_768

    /// A random port in ``candidates`` that can be bound now.
    public static func find() throws -> UInt16 {
        for _ in 0..<64 {
            let port = UInt16.random(in: candidates)
            if isFree(port) { return port }
        }
        throw TestServerError.notListening
    }

    private static func isFree(_ port: UInt16) -> Bool {
        guard let socket = try? Socket(domain: AF_INET, type: .stream) else { return false }
        defer { try? socket.close() }
        return (try? socket.bind(to: .inet(ip4: "127.0.0.1", port: port))) != nil
    }
}
