import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds a TCP port on 127.0.0.1 that nothing listens on, for servers that must be told their port before they start.
///
/// The port is drawn below the system's ephemeral range (Linux: 32768–60999, macOS: 49152–65535), so a server another
/// test starts on port 0 can never be handed the same port between this check and the caller's bind.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public enum FreePort {
    /// No port in ``candidates`` could be bound in 64 draws.
    public struct NoneFound: Error, CustomStringConvertible {
        /// Says what failed.
        public var description: String { "no free port on 127.0.0.1 in \(FreePort.candidates) after 64 draws" }
    }

    /// The ports drawn from: registered ports that no port-0 bind is given.
    public static let candidates = 20_000..<32_768

    /// A random port in ``candidates`` that can be bound now.
    public static func find() throws(NoneFound) -> Int {
        for _ in 0..<64 {
            let port = Int.random(in: candidates)
            if isFree(port) { return port }
        }
        throw NoneFound()
    }

    /// Whether a TCP socket can bind 127.0.0.1:`port` right now (nothing listens there).
    public static func isFree(_ port: Int) -> Bool {
        guard let port = UInt16(exactly: port) else { return false }
        return IPv4Socket.attempt({ bind($0, $1, $2) }, host: "127.0.0.1", port: port)?.result == 0
    }
}
