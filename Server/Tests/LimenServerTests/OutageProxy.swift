import NIOCore
import NIOPosix
import Synchronization
import Testing

/// A TCP proxy on 127.0.0.1 in front of a server (the tests' PostgreSQL), which a test can cut — every connection
/// through it closed, new ones accepted and closed at once, as when the database stops — and restore, without touching
/// the server itself, which other tests share.
final class OutageProxy: Sendable {
    /// The port the proxy listens on.
    let port: Int
    private let listener: any Channel
    private let links: Links

    private init(listener: any Channel, links: Links) throws {
        self.listener = listener
        self.links = links
        port = try #require(listener.localAddress?.port)
    }

    /// A proxy forwarding to `host`:`port`.
    static func start(to host: String, port: Int) async throws -> OutageProxy {
        let target = try SocketAddress.makeAddressResolvingHost(host, port: port)
        let links = Links()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                guard links.admit(inbound) else { return inbound.close() }
                return ClientBootstrap(group: inbound.eventLoop).connect(to: target).flatMap { outbound in
                    guard links.admit(outbound) else { return outbound.close().flatMap { inbound.close() } }
                    return inbound.pipeline.addHandler(Relay(to: outbound)).flatMap {
                        outbound.pipeline.addHandler(Relay(to: inbound))
                    }.flatMap { inbound.setOption(.autoRead, value: true) }
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return try OutageProxy(listener: listener, links: links)
    }

    /// Closes every connection through the proxy and refuses new ones until ``restore()``.
    func cut() async {
        for channel in links.cut() { try? await channel.close() }
    }

    /// Forwards new connections again.
    func restore() {
        links.restore()
    }

    /// Stops listening and closes every connection.
    func close() async {
        await cut()
        try? await listener.close()
    }

    /// The connections open through the proxy, and whether it is cut.
    private final class Links: Sendable {
        private let state = Mutex<(isCut: Bool, channels: [ObjectIdentifier: any Channel])>((false, [:]))

        /// Whether `channel` may open (the proxy is not cut); it is then tracked until it closes.
        func admit(_ channel: any Channel) -> Bool {
            let admitted = state.withLock { state in
                guard !state.isCut else { return false }
                state.channels[ObjectIdentifier(channel)] = channel
                return true
            }
            if admitted {
                channel.closeFuture.whenComplete { _ in
                    self.state.withLock { $0.channels[ObjectIdentifier(channel)] = nil }
                }
            }
            return admitted
        }

        func cut() -> [any Channel] {
            state.withLock { state in
                state.isCut = true
                return Array(state.channels.values)
            }
        }

        func restore() {
            state.withLock { $0.isCut = false }
        }
    }

    /// Writes what one side reads to the other, and closes the other when one closes.
    private final class Relay: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        private let partner: any Channel

        init(to partner: any Channel) {
            self.partner = partner
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            partner.writeAndFlush(unwrapInboundIn(data), promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            partner.close(promise: nil)
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
