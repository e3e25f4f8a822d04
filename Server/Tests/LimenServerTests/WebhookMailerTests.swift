import Foundation
import LimenTestSupport
import LimenWire
import Logging
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite(
    "Mail as a signed JSON POST to a real HTTPS receiver",
    .enabled(if: WebhookPeer.unavailableReason == nil, "python3 cannot import cryptography"))
struct WebhookMailerTests {
    static let message = MailMessage(
        to: "ada@example.com", subject: "Your code: 123456", text: "Your code is 123456.",
        html: "<p>Your code is <b>123456</b>.</p>", kind: .code, purpose: "email-code", code: "123456",
        link: "https://app.example/auth#limen_interaction=i&code=123456")

    @Test("a message arrives as JSON whose signature the receiver checks on its own")
    func delivered() async throws {
        try await WebhookPeer.with { peer in
            try await peer.mailer().send(Self.message)
            let body = try #require(try peer.messages().first)
            #expect(body["to"]?.stringValue == "ada@example.com")
            #expect(body["subject"]?.stringValue == Self.message.subject)
            #expect(body["text"]?.stringValue == Self.message.text)
            #expect(body["html"]?.stringValue == Self.message.html)
            #expect(body["kind"]?.stringValue == "code")
            #expect(body["purpose"]?.stringValue == "email-code")
            #expect(body["code"]?.stringValue == "123456")
            #expect(body["link"]?.stringValue == Self.message.link)
            #expect(peer.attempts() == [200])
        }
    }

    @Test("a receiver answering 503 is tried again, and the message then arrives once")
    func retriedAfterServerError() async throws {
        try await WebhookPeer.with(failing: 2) { peer in
            try await peer.mailer().send(Self.message)
            #expect(peer.attempts() == [503, 503, 200])
            #expect(try peer.messages().count == 1)
        }
    }

    @Test("a receiver that keeps failing is reported after three tries: nothing is lost silently")
    func reportedAfterRetries() async throws {
        try await WebhookPeer.with(failing: -1, status: 500) { peer in
            await #expect(throws: MailError.self) { try await peer.mailer().send(Self.message) }
            #expect(peer.attempts() == [500, 500, 500])
        }
    }

    @Test("a signature with another secret is refused (401), reported at once and not tried again")
    func wrongSecret() async throws {
        try await WebhookPeer.with { peer in
            let mailer = try peer.mailer(secret: String(repeating: "x", count: 40))
            await #expect(throws: MailError.self) { try await mailer.send(Self.message) }
            #expect(peer.attempts() == [401])
            #expect(try peer.messages().isEmpty)
        }
    }

    @Test("a signature stamped ten minutes ago is refused: a captured POST cannot be replayed later")
    func staleTimestamp() async throws {
        try await WebhookPeer.with { peer in
            let mailer = try peer.mailer(now: { Date().addingTimeInterval(-600) })
            await #expect(throws: MailError.self) { try await mailer.send(Self.message) }
            #expect(peer.attempts() == [401])
        }
    }

    @Test("a receiver that is down is tried again, then reported without the secret or the URL's path")
    func receiverDown() async throws {
        let port = try FreePort.find()
        guard case .webhook(let endpoint)? = MailTransport(url: "https://127.0.0.1:\(port)/hook?token=path-secret")
        else {
            Issue.record("https:// refused")
            return
        }
        let mailer = WebhookMailer(
            endpoint: endpoint, secret: WebhookPeer.secret, trustedCAFile: nil, logger: .init(label: "test"),
            now: Date.init, retries: MailRetries(attempts: 3, firstBackoff: .milliseconds(1)))
        do {
            try await mailer.send(Self.message)
            Issue.record("sent to a closed port")
        } catch {
            #expect(!String(describing: error).contains("path-secret"))
            #expect(!String(describing: error).contains(WebhookPeer.secret))
        }
    }

    @Test("webhook URLs: https only, no user information or fragment, the path never described")
    func webhookURLs() throws {
        guard case .webhook(let endpoint)? = MailTransport(url: "https://hooks.example/mail?token=abc") else {
            Issue.record("https:// refused")
            return
        }
        #expect(endpoint.port == 443 && endpoint.target == "/mail?token=abc")
        #expect(!MailTransport.webhook(endpoint).description.contains("abc"))
        #expect(MailTransport(url: "http://hooks.example/mail") == nil)
        #expect(MailTransport(url: "https://user:pw@hooks.example/mail") == nil)
        #expect(MailTransport(url: "https://hooks.example/mail#x") == nil)
    }

    @Test("a code sent through the webhook signs in; with the receiver failing the email waits in the outbox")
    func throughTheFlow() async throws {
        try await WebhookPeer.with { peer in
            try await FlowFixture.run(configure: peer.configure) { fixture in
                let id = try #require(try await fixture.startFlow("email-code")["interaction"])
                _ = try await fixture.continueFlow(
                    id, node: "email", action: "submit", values: ["email": .string(FlowFixture.email)])
                await fixture.provider.mailOutboxWorker.deliverDue()
                let body = try #require(try peer.messages().last)
                #expect(body["kind"]?.stringValue == "code")
                #expect(body["purpose"]?.stringValue == "email-code")
                let code = try #require(body["code"]?.stringValue)
                let done = try await fixture.continueFlow(
                    id, node: "code", action: "submit", values: ["code": .string(code)])
                #expect(done.nodeType == "success")
            }
        }
        try await WebhookPeer.with(failing: -1, status: 502) { peer in
            try await FlowFixture.run(configure: peer.configure) { fixture in
                try await fixture.expectCodeKeptForRetry()
                #expect(peer.attempts() == [502, 502, 502])
            }
        }
    }
}
