import Foundation
import HTTPTypes
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite(
    "Asking for a code takes the same time for any address: the request only writes to the outbox",
    .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
struct MailTimingTests {
    @Test(
        "finding 6: a known and an unknown address answer password-reset in the same time",
        arguments: ["password-reset", "email-code"])
    func sameTime(_ flow: String) async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            var answers: [Bool: [JSONValue]] = [:]
            for round in 0..<5 {
                for known in [true, false] {
                    let id = try #require(try await fixture.startFlow(flow)["interaction"])
                    let email = known ? FlowFixture.email : "nobody-\(round)@example.com"
                    let answer = try await fixture.continueFlow(
                        id, node: "email", action: "submit", values: ["email": .string(email)])
                    // The answer came before the SMTP server received anything: it never waits for delivery, which
                    // took 420 ms for a known address when the request sent the mail itself.
                    #expect(peer.messagesKept() == 0, "answered before any delivery (known: \(known))")
                    answers[known, default: []].append(
                        .array([.number(Double(answer.status.code)), .object(answer.node)]))
                }
            }
            #expect(answers[true] == answers[false], "the same answers for both")
            let delivered = await peer.messages()
            #expect(delivered.count == 5)
            #expect(delivered.allSatisfy { $0.contains("X-Envelope-To: \(FlowFixture.email)") })
        }
    }
}
