import NIOCore
import NIOPosix

/// Finds a TCP port on 127.0.0.1 that nothing listens on, for servers that must be told their port before they start
/// (nodes behind a proxy, and the proxy itself).
///
/// The port is drawn below the system's ephemeral range (Linux: 32768–60999, macOS: 49152–65535), so a server another
/// test starts on port 0 can never be handed the same port between this check and the caller's bind.
enum FreePort {
    /// The ports drawn from: registered ports that no port-0 bind is given.
    static let candidates = 20_000..<32_768

    /// A random port in ``candidates`` that can be bound now.
    static func find() async throws -> Int {
        for _ in 0..<64 {
            let port = Int.random(in: candidates)
            let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            if let channel = try? await bootstrap.bind(host: "127.0.0.1", port: port).get() {
                try await channel.close()
                return port
            }
        }
        throw FreePortError.noneFound
    }

    /// No free port was found in 64 draws.
    enum FreePortError: Error {
        case noneFound
    }
}
