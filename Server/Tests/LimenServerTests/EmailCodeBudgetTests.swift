import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Email-code budgets per address and purpose, across codes and interactions", .serialized)
struct EmailCodeBudgetTests {
    /// Asks for an `email-code` code for `email` in a new interaction: its ID and the answer.
    static func askCode(_ fixture: TokenFixture, for email: String) async throws -> (String, RecordedResponse) {
        let id = try #require(try await fixture.startFlow("email-code")["interaction"])
        return (
            id, try await fixture.continueFlow(id, node: "email", action: "submit", values: ["email": .string(email)])
        )
    }

    /// Expects the refusal of a spent budget: `429` with the same seconds in `Retry-After` and `retry_after`.
    static func expectSpent(_ answer: RecordedResponse) throws -> Int {
        #expect(answer.status == .tooManyRequests)
        #expect(answer.nodeType == "error")
        let seconds = try #require(answer.headers[.retryAfter].flatMap { Int($0) })
        #expect(answer.json["retry_after"]?.numberValue == Double(seconds))
        return seconds
    }

    @Test("finding 5: a guesser asking for code after code is refused once the address's budget is spent")
    func guesserRefused() async throws {
        try await FlowFixture.run { fixture in
            var (checked, refusedTries, refusedMails) = (0, 0, 0)
            var last: (interaction: String, code: String)?
            // The review's attack: eleven codes, five wrong guesses each.
            for _ in 0..<11 {
                let (id, sent) = try await Self.askCode(fixture, for: FlowFixture.email)
                guard sent.status == .ok else {
                    _ = try Self.expectSpent(sent)
                    refusedMails += 1
                    continue
                }
                let code = try #require(try await fixture.mailedCodes().last)
                last = (id, code)
                for _ in 0..<EmailCodes.maximumAttempts {
                    let guess = try await fixture.continueFlow(
                        id, node: "code", action: "submit",
                        values: ["code": .string(code == "000000" ? "111111" : "000000")])
                    if guess.status == .tooManyRequests { refusedTries += 1 } else { checked += 1 }
                }
            }
            #expect(checked == EmailCodeBudgets.defaultTries.perHour)
            #expect(refusedMails == 11 - EmailCodeBudgets.defaultMails.perHour, "no mail once the budget is spent")
            #expect(refusedTries == EmailCodeBudgets.defaultMails.perHour * EmailCodes.maximumAttempts - checked)
            #expect(try await fixture.mailedCodes().isEmpty)
            // Even the right code of the last mail is refused now.
            let (id, code) = try #require(last)
            _ = try Self.expectSpent(
                try await fixture.continueFlow(id, node: "code", action: "submit", values: ["code": .string(code)]))
        }
    }

    @Test(
        "finding 5: an unknown address is counted and refused the same way, and a fresh address still gets its code")
    func sameForAnyAddress() async throws {
        try await FlowFixture.run { fixture in
            var refusals: [JSONValue] = []
            for email in [FlowFixture.email, "nobody@example.com"] {
                for _ in 0..<EmailCodeBudgets.defaultMails.perHour {
                    #expect(try await Self.askCode(fixture, for: email).1.status == .ok)
                }
                let refused = try await Self.askCode(fixture, for: email).1
                _ = try Self.expectSpent(refused)
                refusals.append(
                    .array([
                        .number(Double(refused.status.code)), .object(refused.node),
                        refused.json["retry_after"] ?? .null,
                    ]))
            }
            #expect(refusals.count == 2 && refusals[0] == refusals[1])
            _ = try await fixture.mailedCodes()

            _ = try await fixture.provider.accounts.signUp(
                email: "fresh@example.com", password: "a long passphrase", name: "Fresh", origin: RequestOrigin())
            let (id, sent) = try await Self.askCode(fixture, for: "fresh@example.com")
            #expect(sent.status == .ok)
            let code = try #require(try await fixture.mailedCodes().last)
            let done = try await fixture.continueFlow(
                id, node: "code", action: "submit", values: ["code": .string(code)])
            #expect(done.nodeType == "success")
        }
    }

    @Test("finding 5: the budget refills once its hour is over")
    func refills() async throws {
        let small: (inout ServerConfiguration) -> Void = {
            $0.emailCodeMailBudget = EmailCodeBudget(perHour: 2, perDay: 3)
        }
        try await FlowFixture.run(configure: small) { fixture in
            for _ in 0..<2 { #expect(try await Self.askCode(fixture, for: FlowFixture.email).1.status == .ok) }
            let wait = try Self.expectSpent(try await Self.askCode(fixture, for: FlowFixture.email).1)
            #expect(wait > 0 && wait <= 3600)
            fixture.clock.advance(by: TimeInterval(wait - 1))
            _ = try Self.expectSpent(try await Self.askCode(fixture, for: FlowFixture.email).1)
            fixture.clock.advance(by: 1)
            #expect(try await Self.askCode(fixture, for: FlowFixture.email).1.status == .ok)
            // The day's budget (3) is spent now: the wait runs to the end of the day.
            let dayWait = try Self.expectSpent(try await Self.askCode(fixture, for: FlowFixture.email).1)
            #expect(dayWait > 3600)
            fixture.clock.advance(by: TimeInterval(dayWait))
            #expect(try await Self.askCode(fixture, for: FlowFixture.email).1.status == .ok)
        }
    }
}

extension TokenFixture {
    /// The codes mailed since the last call, oldest first, read from the outbox (no worker runs in the fixture).
    func mailedCodes() async throws -> [String] {
        var codes: [String] = []
        while let mail = try await provider.store.claimOutboxMail(
            now: clock.now, until: clock.now.addingTimeInterval(1), claim: "test")
        {
            if let code = provider.mailOutbox.open(mail)?.code { codes.append(code) }
        }
        return codes
    }
}
