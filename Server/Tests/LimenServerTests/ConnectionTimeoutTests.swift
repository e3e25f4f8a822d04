import Foundation
import LimenTestSupport
import NIOCore
import NIOPosix
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Connections that send too slowly are closed (slowloris)")
struct ConnectionTimeoutTests {
    /// Opens a raw TCP connection to `issuer`'s port, sends `bytes`, and returns whether the server closed the
    /// connection within `bound` (a generous bound that only stops a hung test; the timeouts under test are short).
    private func closedByServer(_ issuer: String, sending bytes: String, within bound: Duration = .seconds(60))
        async throws -> Bool
    {
        let port = try #require(URLComponents(string: issuer)?.port)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port).get()
        // On a loaded machine the server may close before the bytes are written: that is a close as well.
        try? await channel.writeAndFlush(ByteBuffer(string: bytes)).get()
        // A gate, not `closeFuture.get()`: a wait that the deadline can cancel.
        let closing = Gate()
        channel.closeFuture.whenComplete { _ in Task { await closing.open() } }
        let closed =
            try await withDeadline(bound) {
                await closing.wait()
                return true
            } != nil
        if !closed { try? await channel.close() }
        return closed
    }

    /// A configuration step setting `timeouts` (short ones, so the test does not wait long).
    private static func timeouts(_ timeouts: ConnectionTimeouts) -> (inout ServerConfiguration) -> Void {
        { $0.connectionTimeouts = timeouts }
    }

    @Test("a request head that never ends is closed after the header-read timeout, however long the idle timeout")
    func partialHeader() async throws {
        let configure = Self.timeouts(ConnectionTimeouts(headerRead: 0.2, idle: 3600))
        try await withLiveServer(configure: configure) { _, issuer in
            let closed = try await closedByServer(
                issuer, sending: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            #expect(closed)
        }
    }

    @Test("a kept-alive connection left idle after its answer is closed after the idle timeout")
    func idleConnection() async throws {
        let configure = Self.timeouts(ConnectionTimeouts(headerRead: 3600, idle: 0.2))
        try await withLiveServer(configure: configure) { _, issuer in
            let closed = try await closedByServer(issuer, sending: "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(closed)
        }
    }

    @Test("the timeouts are settings: flags, variables or file keys, as durations within bounds")
    func settings() throws {
        let configuration = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(["--header-read-timeout": "5s"]), environment: ["LIMEN_IDLE_TIMEOUT": "2m"])
        #expect(configuration.connectionTimeouts == ConnectionTimeouts(headerRead: 5, idle: 120))
        #expect(ServerConfiguration().connectionTimeouts == ConnectionTimeouts(headerRead: 10, idle: 60))
        for (flags, environment) in [
            (ConfigurationFlags(["--header-read-timeout": "0"]), [:]),
            (ConfigurationFlags(), ["LIMEN_IDLE_TIMEOUT": "2h"]),
            (ConfigurationFlags(["--idle-timeout": "soon"]), [:]),
        ] {
            #expect(throws: ConfigurationError.self) {
                try ServerConfiguration.resolve(flags: flags, environment: environment)
            }
        }
    }
}
