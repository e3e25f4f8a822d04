import LimenServerCore
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One HTTPS POST over SwiftNIO (NIOHTTP1's codec, NIOSSL), or plain HTTP without a TLS context (loopback event webhooks
/// in development): the request, then the response's status; the body of the response is not read, a redirect is not
/// followed. A connection that does not answer within the deadline is closed.
struct WebhookPost {
    /// Where to.
    let endpoint: WebhookEndpoint
    /// The TLS context (the system's CAs, or those of `mail_ca_file`); `nil` for plain HTTP.
    let tls: MailTLSContext?
    /// How long connecting may take, and a quarter of how long the whole exchange may.
    let timeout: TimeAmount

    /// Sends `body` with `headers` (plus `Host`, `Content-Length` and `Connection: close`) and returns the status code.
    func send(body: ByteBuffer, headers: [(String, String)]) async throws -> Int {
        let tls = try self.tls?.context()
        let endpoint = self.endpoint
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .connect(host: endpoint.host, port: endpoint.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: MailTLS.serverName(for: endpoint.host)))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(
                        wrappingChannelSynchronously: channel)
                }
            }
        let deadline = channel.channel.eventLoop.scheduleTask(in: timeout * 4) { channel.channel.close(promise: nil) }
        defer { deadline.cancel() }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: endpoint.target)
            let defaultPort = tls == nil ? 80 : 443
            head.headers.add(
                name: "Host", value: endpoint.port == defaultPort ? endpoint.host : "\(endpoint.host):\(endpoint.port)")
            head.headers.add(name: "Content-Length", value: String(body.readableBytes))
            head.headers.add(name: "Connection", value: "close")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            // One write, one flush: a receiver may answer and close as soon as the body is in, and an answer
            // that came before a late write failed is still the answer.
            var writeError: (any Error)?
            do {
                try await outbound.write(contentsOf: [.head(head), .body(.byteBuffer(body)), .end(nil)])
            } catch {
                writeError = error
            }
            for try await part in inbound {
                if case .head(let response) = part { return Int(response.status.code) }
            }
            throw writeError ?? MailError("\(endpoint): the server closed the connection without an answer")
        }
    }
}
