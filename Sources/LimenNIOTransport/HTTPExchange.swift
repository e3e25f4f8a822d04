import Foundation
import LimenOIDC
import LimenWire
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One request on a connection of its own: connect (TLS with Limen's trust evaluation for `https`), send, gather the
/// response, close. Every way it can end becomes an `HTTPResponse` or a `NetworkError`.
struct HTTPExchange: Sendable {
    /// The request.
    let request: HTTPRequest
    /// Where it goes.
    let target: RequestTarget
    /// What judges the server's certificates.
    let trust: ServerTrustEvaluator
    /// The TLS context (its own verification is replaced by ``trust``).
    let tls: NIOSSLContext
    /// Seconds for the whole exchange, from connecting to the response's end.
    let timeout: TimeInterval
    /// The largest body accepted.
    let maximumBodyBytes: Int

    /// What happened besides the channel's own errors, read when it fails to name the failure.
    private struct Circumstances: Sendable {
        var verdict: TrustVerdict?
        var timedOut = false
        var cancelled = false
    }

    /// Runs the exchange.
    func run() async -> Result<HTTPResponse, NetworkError> {
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let promise = loop.makePromise(of: HTTPResponse.self)
        let circumstances = NIOLockedValueBox(Circumstances())
        let deadline = TimeAmount.nanoseconds(Int64(timeout * 1_000_000_000))
        let bootstrap = ClientBootstrap(group: loop)
            .connectTimeout(deadline)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if target.isSecure {
                        try channel.pipeline.syncOperations.addHandler(tlsHandler(recordingIn: circumstances))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(
                        ResponseCollector(promise: promise, maximumBodyBytes: maximumBodyBytes))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: target.host, port: target.port).get()
        } catch {
            promise.fail(error)
            return .failure(connectFailure(error))
        }
        let timer = loop.scheduleTask(in: deadline) {
            circumstances.withLockedValue { $0.timedOut = true }
            channel.close(promise: nil)
        }
        send(on: channel)
        let outcome: Result<HTTPResponse, any Error> = await withTaskCancellationHandler {
            do {
                return .success(try await promise.futureResult.get())
            } catch {
                return .failure(error)
            }
        } onCancel: {
            circumstances.withLockedValue { $0.cancelled = true }
            channel.close(promise: nil)
        }
        timer.cancel()
        channel.close(promise: nil)
        return outcome.mapError { exchangeFailure($0, circumstances.withLockedValue { $0 }) }
    }

    /// Writes the request: head, body, end. A failed write surfaces through the collector.
    private func send(on channel: any Channel) {
        var headers = HTTPHeaders(request.headers.map { ($0.key, $0.value) })
        headers.replaceOrAdd(name: "Host", value: target.hostHeader)
        headers.replaceOrAdd(name: "Connection", value: "close")
        if let body = request.body {
            headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        }
        let head = HTTPRequestHead(
            version: .http1_1, method: HTTPMethod(rawValue: request.method.uppercased()), uri: target.pathAndQuery,
            headers: headers)
        channel.write(HTTPClientRequestPart.head(head), promise: nil)
        if let body = request.body, !body.isEmpty {
            channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
        }
        channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    }

    /// The TLS handler whose verification is ``trust``'s, its verdict kept for naming a failed handshake.
    private func tlsHandler(recordingIn circumstances: NIOLockedValueBox<Circumstances>) throws -> NIOSSLClientHandler {
        try NIOSSLClientHandler(
            context: tls, serverHostname: target.isIPAddress ? nil : target.host,
            customVerificationCallback: { [trust, target] certificates, promise in
                let presented = certificates.map { certificate in
                    (try? certificate.toDERBytes()).map { Data($0) } ?? Data()
                }
                Task {
                    let verdict = await trust.evaluate(host: target.host, presented: presented)
                    circumstances.withLockedValue { $0.verdict = verdict }
                    promise.succeed(verdict == .trusted ? .certificateVerified : .failed)
                }
            })
    }

    /// Names a failure to connect.
    private func connectFailure(_ error: any Error) -> NetworkError {
        if case ChannelError.connectTimeout = error { return .timeout }
        if let failure = error as? NIOConnectionError, failure.connectionErrors.isEmpty {
            return .offline("could not resolve \(target.host) (DNS lookup failed)")
        }
        return .offline("could not connect to \(target.origin) (connection refused)")
    }

    /// Names a failure after connecting, from what the trust evaluation, the deadline or the caller did first.
    private func exchangeFailure(_ error: any Error, _ circumstances: Circumstances) -> NetworkError {
        switch circumstances.verdict {
        case .pinningRefused(let refusal): return refusal
        case .untrusted(let reason):
            return .tls("TLS with \(target.origin) failed (certificate not trusted: \(reason))")
        case .trusted, nil: break
        }
        if circumstances.cancelled { return .cancelled }
        if circumstances.timedOut { return .timeout }
        switch error {
        case ResponseCollector.Failure.tooLarge(let limit):
            return .invalidResponse("the response from \(target.origin) is larger than \(limit) bytes")
        case is NIOSSLError: return .tls("TLS with \(target.origin) failed (handshake failed)")
        case is HTTPParserError: return .invalidResponse("the response from \(target.origin) is not HTTP/1.1")
        default: return .connectionLost("the connection to \(target.origin) was lost")
        }
    }
}
