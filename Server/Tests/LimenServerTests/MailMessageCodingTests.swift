import Foundation
import Logging
import Testing

@testable import LimenServerCore

@Suite("Outbox messages across versions")
struct MailMessageCodingTests {
    @Test("a message queued before SMS existed (no channel) is an email; an SMS keeps its channel")
    func channel() throws {
        let older = Data(#"{"to":"ada@example.com","subject":"S","text":"T","html":"H","kind":"notice"}"#.utf8)
        #expect(try JSONDecoder().decode(MailMessage.self, from: older).channel == .email)
        let sms = SMSMessages.code("123456", to: "+15551234567", issuer: "https://id.example.com")
        let decoded = try JSONDecoder().decode(MailMessage.self, from: JSONEncoder().encode(sms))
        #expect(decoded == sms && decoded.channel == .sms)
        #expect(sms.text.hasSuffix("@id.example.com #123456"), "the origin-bound line that autofill reads")
    }

    @Test("log: writes an email and an SMS to the log, each marked NOT SENT with its own setting")
    func logged() async throws {
        let recorded = RecordedLines()
        let mailer = LogMailer(logger: recorded.logger)
        try await mailer.send(SMSMessages.code("123456", to: "+15551234567", issuer: "https://id.example.com"))
        try await mailer.send(MailMessage(to: "ada@example.com", subject: "S", text: "T", html: "H"))
        let sms = try #require(recorded.first(startingWith: "SMS NOT SENT (sms_url is log:"))
        #expect(sms.metadata["to"] == "+15551234567")
        #expect(recorded.first(startingWith: "Email NOT SENT (mail_url is log:")?.metadata["to"] == "ada@example.com")
    }
}
