import Foundation
import Hummingbird
import HummingbirdCore
import LimenServerCore
import Logging
import NIOCore
import NIOHTTPTypes

/// HTTP/1.1 served as Hummingbird serves it (``ConnectionTimeouts/idle`` is its idle timeout), plus a limit on how
/// long a request head may take to arrive (``ConnectionTimeouts/headerRead``): a handler before the HTTP decoder
/// starts the clock at a request's first byte, one after it stops the clock when the head is decoded, and the
/// connection is closed when the clock runs out.
struct TimedHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    /// Answers the requests.
    let responder: HTTPChannelHandler.Responder
    /// Hummingbird's HTTP/1.1 settings (its idle timeout among them).
    let configuration: HTTP1Channel.Configuration
    /// The longest a request head may take from its first byte.
    let headerReadTimeout: TimeAmount

    /// The HTTP/1.1 server of `responder` with `timeouts`.
    static func builder(timeouts: ConnectionTimeouts) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            TimedHTTP1Channel(
                responder: responder,
                configuration: HTTP1Channel.Configuration(idleTimeout: timeAmount(timeouts.idle)),
                headerReadTimeout: timeAmount(timeouts.headerRead)
            )
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let clock = RequestHeadClock(timeout: headerReadTimeout)
        do {
            try channel.pipeline.syncOperations.addHandler(RequestHeadStartHandler(clock: clock), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        // Hummingbird asks for the handlers after its decoder while it sets up this channel, on its event loop.
        let bound = NIOLoopBound(clock, eventLoop: channel.eventLoop)
        var configuration = self.configuration
        configuration.additionalChannelHandlers = { [RequestHeadEndHandler(clock: bound.value)] }
        return HTTP1Channel(responder: responder, configuration: configuration).setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await HTTP1Channel(responder: responder, configuration: configuration).handle(value: value, logger: logger)
    }

    private static func timeAmount(_ seconds: TimeInterval) -> TimeAmount {
        .nanoseconds(Int64((seconds * 1_000_000_000).rounded()))
    }
}

/// Where a connection is in reading its current request, shared by the two handlers on the channel's event loop.
final class RequestHeadClock {
    /// What the connection is reading.
    enum Phase {
        /// Nothing yet: the next byte starts a request.
        case betweenRequests
        /// A request's head, with the clock running.
        case head
        /// A request's body (the head arrived in time).
        case body
    }

    /// The longest a head may take.
    let timeout: TimeAmount
    /// What the connection is reading.
    var phase = Phase.betweenRequests
    /// The scheduled close, while a head is being read.
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    /// A request's first bytes arrived on `channel`: close it unless its head is decoded within ``timeout``.
    func start(on channel: any Channel) {
        guard phase == .betweenRequests else { return }
        phase = .head
        deadline = channel.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    /// The head was decoded in time.
    func stop() {
        phase = .body
        cancel()
    }

    /// The request's end was read: the next byte starts another.
    func requestEnded() {
        phase = .betweenRequests
    }

    /// Cancels a scheduled close (the connection closed or the head arrived).
    func cancel() {
        deadline?.cancel()
        deadline = nil
    }
}

/// Before the HTTP decoder: the first bytes of a request start its clock.
final class RequestHeadStartHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let clock: RequestHeadClock

    init(clock: RequestHeadClock) {
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        clock.start(on: context.channel)
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        clock.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        clock.cancel()
    }
}

/// After the HTTP decoder: a decoded head stops the clock; a request's end lets the next bytes start it again.
final class RequestHeadEndHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let clock: RequestHeadClock

    init(clock: RequestHeadClock) {
        self.clock = clock
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: clock.stop()
        case .body: break
        case .end: clock.requestEnded()
        }
        context.fireChannelRead(data)
    }
}

@available(*, unavailable)
extension RequestHeadClock: Sendable {}
