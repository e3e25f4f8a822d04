import FlyingSocks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP listener on 127.0.0.1 that reads each request and closes the connection without answering:
/// the "network drop" a client must survive.
public final class DroppingServer: Sendable {
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    private let socket: Socket

    /// Starts listening on a random port.
    public init() throws {
        socket = try Socket(domain: AF_INET, type: .stream)
        try socket.setValue(true, for: .localAddressReuse)
        try socket.bind(to: .inet(ip4: "127.0.0.1", port: 0))
        try socket.listen()
        guard case .ip4(_, let port) = try socket.sockname() else { throw TestServerError.notListening }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        let listener = socket
        Thread.detachNewThread {
            while let connection = try? listener.accept() {
                let client = Socket(file: connection.file)
                _ = try? client.read(atMost: 65_536)
                try? client.close()
            }
        }
    }

    /// Stops accepting: wakes the accepting thread and closes the socket.
    public func stop() {
        _ = shutdown(socket.file.rawValue, Int32(SHUT_RDWR))
        try? socket.close()
    }
}
