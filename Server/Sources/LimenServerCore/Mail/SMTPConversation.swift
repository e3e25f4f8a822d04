import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// One SMTP session (RFC 5321) over SwiftNIO: greeting, `EHLO`, `STARTTLS` (RFC 3207) or TLS from the start, `AUTH
/// PLAIN` or `LOGIN` (RFC 4954), one message, `QUIT`. Every reply is checked; anything unexpected is a ``MailError``
/// naming the step and the server's reply.
struct SMTPConversation {
    /// The server.
    package let endpoint: SMTPEndpoint
    /// The TLS context (the system's CAs, or a private relay's).
    package let tls: MailTLSContext
    /// The envelope and `From:` address.
    package let sender: String
    /// How long connecting may take, and a quarter of how long the whole session may.
    package let timeout: TimeAmount

    /// Delivers `message`.
    func deliver(_ message: MailMessage) async throws {
        let tls = try self.tls.context()
        let (endpoint, timeout) = (self.endpoint, self.timeout)
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(timeout)
            .connect(host: endpoint.host, port: endpoint.port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    if endpoint.security == .implicitTLS {
                        try channel.pipeline.syncOperations.addHandler(
                            NIOSSLClientHandler(context: tls, serverHostname: endpoint.serverName))
                    }
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        // One deadline for the whole session: a server that stops answering closes the connection, which ends the
        // read waiting for it.
        let deadline = channel.channel.eventLoop.scheduleTask(in: timeout * 4) { channel.channel.close(promise: nil) }
        defer { deadline.cancel() }
        try await channel.executeThenClose { inbound, outbound in
            var replies = SMTPReplyReader(inbound: inbound.makeAsyncIterator())
            func say(_ line: String, expect codes: Set<Int>, step: String) async throws -> SMTPReply {
                try await outbound.write(ByteBuffer(string: line + "\r\n"))
                return try await replies.expect(codes, step: step)
            }
            _ = try await replies.expect([220], step: "greeting")
            var hello = try await say("EHLO limen", expect: [250], step: "EHLO")
            if endpoint.security == .startTLS {
                guard hello.lines.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) else {
                    throw MailError("\(endpoint.host) does not offer STARTTLS")
                }
                _ = try await say("STARTTLS", expect: [220], step: "STARTTLS")
                try await channel.channel.eventLoop.submit {
                    try channel.channel.pipeline.syncOperations.addHandler(
                        NIOSSLClientHandler(context: tls, serverHostname: endpoint.serverName), position: .first)
                }.get()
                hello = try await say("EHLO limen", expect: [250], step: "EHLO after STARTTLS")
            }
            if let credentials = endpoint.credentials {
                try await authenticate(credentials, offered: hello, say: say)
            }
            _ = try await say("MAIL FROM:<\(sender)>", expect: [250], step: "MAIL FROM")
            _ = try await say("RCPT TO:<\(message.to)>", expect: [250, 251], step: "RCPT TO")
            _ = try await say("DATA", expect: [354], step: "DATA")
            _ = try await say(
                MailFormat.data(of: message, from: sender) + "\r\n.", expect: [250], step: "end of data")
            _ = try? await say("QUIT", expect: [221], step: "QUIT")
        }
    }

    /// `AUTH PLAIN` when offered, else `AUTH LOGIN`.
    private func authenticate(
        _ credentials: (username: String, password: String),
        offered hello: SMTPReply,
        say: (String, Set<Int>, String) async throws -> SMTPReply
    ) async throws {
        let mechanisms =
            hello.lines.first { $0.uppercased().hasPrefix("AUTH") }?.uppercased()
            .split(separator: " ").dropFirst().map(String.init) ?? []
        func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
        if mechanisms.contains("PLAIN") {
            _ = try await say(
                "AUTH PLAIN " + base64("\0\(credentials.username)\0\(credentials.password)"), [235], "AUTH PLAIN")
        } else if mechanisms.contains("LOGIN") {
            _ = try await say("AUTH LOGIN", [334], "AUTH LOGIN")
            _ = try await say(base64(credentials.username), [334], "AUTH LOGIN user name")
            _ = try await say(base64(credentials.password), [235], "AUTH LOGIN password")
        } else {
            throw MailError(
                "\(endpoint.host) offers neither AUTH PLAIN nor AUTH LOGIN (it offers \(hello.lines.joined(separator: ", ")))"
            )
        }
    }

}

/// A server reply: its code and its lines' texts.
struct SMTPReply: Sendable {
    /// The three-digit code.
    package var code: Int
    /// Each line's text after the code.
    package var lines: [String]
}

/// Reads SMTP replies (possibly several lines, `250-…` then `250 …`) from a connection's bytes.
struct SMTPReplyReader {
    /// The connection's bytes.
    package var inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
    private var pending = ""

    package init(inbound: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator) {
        self.inbound = inbound
    }

    /// The next reply, which must have one of `codes`.
    mutating func expect(_ codes: Set<Int>, step: String) async throws -> SMTPReply {
        let reply = try await next(step: step)
        guard codes.contains(reply.code) else {
            throw MailError("\(step): the server answered \(reply.code) \(reply.lines.joined(separator: " "))")
        }
        return reply
    }

    private mutating func next(step: String) async throws -> SMTPReply {
        var lines: [String] = []
        while true {
            while let end = pending.range(of: "\r\n") ?? pending.range(of: "\n") {
                let line = String(pending[..<end.lowerBound])
                pending.removeSubrange(..<end.upperBound)
                guard line.count >= 3, let code = Int(line.prefix(3)) else {
                    throw MailError("\(step): the server sent something that is not an SMTP reply")
                }
                lines.append(String(line.dropFirst(4)))
                if line.count == 3 || line[line.index(line.startIndex, offsetBy: 3)] == " " {
                    return SMTPReply(code: code, lines: lines)
                }
            }
            guard pending.utf8.count < 64 * 1024, let buffer = try await inbound.next() else {
                throw MailError("\(step): the server closed the connection")
            }
            pending += String(buffer: buffer)
        }
    }
}

extension SMTPEndpoint {
    /// The name TLS sends and checks the certificate against (none for an IP address).
    package var serverName: String? { MailTLS.serverName(for: host) }
}
