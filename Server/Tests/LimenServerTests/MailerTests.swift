import Foundation
import LimenTestSupport
import Logging
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Mail over a real SMTP server", .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
struct MailerTests {
    static let message = MailMessage(
        to: "ada@example.com", subject: "Your code: 123456 ✓", text: "Your code is 123456.\n.\nBye",
        html: "<p>Your code is <b>123456</b>.</p>")

    @Test("plain SMTP to a relay on this machine delivers text and HTML, dot-stuffed, to the recipient")
    func plain() async throws {
        try await SMTPPeer.with { peer in
            try await peer.mailer("smtp://127.0.0.1:\(peer.port)").send(Self.message)
            let kept = try #require(await peer.messages().first)
            #expect(kept.contains("X-Envelope-To: ada@example.com"))
            #expect(kept.contains("From: limen@example.com"))
            #expect(kept.contains("Subject: =?utf-8?B?"))
            #expect(kept.contains(Data(Self.message.text.utf8).base64EncodedString().prefix(40)))
            #expect(kept.contains("text/html"))
        }
    }

    @Test("STARTTLS then AUTH PLAIN, with the relay's CA trusted; a wrong password is refused")
    func startTLS() async throws {
        try await SMTPPeer.with(tls: "starttls", auth: "mailer:s3cret") { peer in
            try await peer.mailer("smtp+starttls://mailer:s3cret@localhost:\(peer.port)").send(Self.message)
            #expect(await peer.messages().count == 1)
            await #expect(throws: MailError.self) {
                try await peer.mailer("smtp+starttls://mailer:wrong@localhost:\(peer.port)").send(Self.message)
            }
            // Without the relay's CA its certificate is not trusted, and nothing is sent in clear instead.
            await #expect(throws: MailError.self) {
                try await peer.mailer("smtp+starttls://mailer:s3cret@localhost:\(peer.port)", trustCA: false)
                    .send(Self.message)
            }
            #expect(await peer.messages().count == 1)
        }
    }

    @Test("TLS from the first byte (smtps) with AUTH")
    func implicitTLS() async throws {
        try await SMTPPeer.with(tls: "implicit", auth: "mailer:s3cret") { peer in
            try await peer.mailer("smtps://mailer:s3cret@localhost:\(peer.port)").send(Self.message)
            #expect(await peer.messages().count == 1)
        }
    }

    @Test("a server that is down is tried again, then reported; the error never shows the password")
    func serverDown() async throws {
        let port = try FreePort.find()
        guard case .smtp(let endpoint)? = MailTransport(url: "smtps://u:hunter2@127.0.0.1:\(port)") else {
            Issue.record("smtps:// refused")
            return
        }
        let mailer = SMTPMailer(
            endpoint: endpoint, trustedCAFile: nil, sender: "limen@example.com", logger: .init(label: "test"),
            retries: MailRetries(attempts: 3, firstBackoff: .milliseconds(1)))
        do {
            try await mailer.send(Self.message)
            Issue.record("sent to a closed port")
        } catch {
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test("mail URLs: the forms, the defaults, and no password over plain SMTP or in any description")
    func mailURLs() throws {
        #expect(MailTransport(url: "log:") == .log)
        guard case .smtp(let relay)? = MailTransport(url: "smtp://relay.internal") else {
            Issue.record("smtp:// refused")
            return
        }
        #expect(relay.port == 25 && relay.security == SMTPEndpoint.Security.none)
        guard case .smtp(let submission)? = MailTransport(url: "smtp+starttls://me:pa%20ss@mail.example:587") else {
            Issue.record("smtp+starttls:// refused")
            return
        }
        #expect(submission.credentials?.password == "pa ss")
        #expect(!submission.description.contains("pa"))
        #expect(MailTransport(url: "smtp://me:secret@relay.internal") == nil)
        #expect(MailTransport(url: "ftp://relay") == nil)
        #expect(MailTransport(url: "smtps://") == nil)
    }
}
