import Foundation
import LimenOIDC
import LimenWire
import NIOCore
import NIOHTTP1

/// The last handler of a request's channel: gathers the response's head and body into an `HTTPResponse` and
/// completes the exchange's promise once, with the response, the first error, or the connection's end.
final class ResponseCollector: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    /// Why an exchange ended without a response, before the transport names it as a `NetworkError`.
    enum Failure: Error {
        /// The connection closed before the response's end.
        case closedEarly
        /// The body grew past the limit.
        case tooLarge(limit: Int)
    }

    private let promise: EventLoopPromise<HTTPResponse>
    private let maximumBodyBytes: Int
    private var head: HTTPResponseHead?
    private var body: ByteBuffer?
    private var isComplete = false

    /// A collector that completes `promise` and refuses bodies longer than `maximumBodyBytes`.
    init(promise: EventLoopPromise<HTTPResponse>, maximumBodyBytes: Int) {
        self.promise = promise
        self.maximumBodyBytes = maximumBodyBytes
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isComplete else { return }
        switch unwrapInboundIn(data) {
        case .head(let received):
            // An interim answer (100 Continue) precedes the real one.
            if received.status.code >= 200 || received.status == .switchingProtocols { head = received }
        case .body(var part):
            guard (body?.readableBytes ?? 0) + part.readableBytes <= maximumBodyBytes else {
                return fail(Failure.tooLarge(limit: maximumBodyBytes), context: context)
            }
            body.setOrWriteBuffer(&part)
        case .end:
            guard let head else { return fail(Failure.closedEarly, context: context) }
            isComplete = true
            let headers = Dictionary(
                head.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { "\($0), \($1)" })
            let bytes = body.map { Data($0.readableBytesView) } ?? Data()
            promise.succeed(HTTPResponse(status: Int(head.status.code), headers: headers, body: bytes))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(Failure.closedEarly, context: context)
        context.fireChannelInactive()
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        guard !isComplete else { return }
        isComplete = true
        promise.fail(error)
        context.close(promise: nil)
    }
}
