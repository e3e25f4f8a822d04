import Foundation
import LimenServerStorage
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite(
    "Sign-up proves the address with a code and does not tell who has an account",
    .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
struct SignUpFlowTests {
    static let password = "a long enough password"

    /// Starts `sign-up` and submits `email`; returns the interaction and the answer.
    private static func sendCode(_ fixture: TokenFixture, to email: String) async throws -> (String, RecordedResponse) {
        let id = try #require(try await fixture.startFlow("sign-up")["interaction"])
        return (
            id, try await fixture.continueFlow(id, node: "details", action: "submit", values: ["email": .string(email)])
        )
    }

    /// Submits the code step with `code`, `name` and `password` (a good one unless given).
    private static func confirm(
        _ fixture: TokenFixture,
        _ id: String,
        code: String,
        name: String = "New",
        password: String = password
    ) async throws -> RecordedResponse {
        try await fixture.continueFlow(
            id, node: "code", action: "submit",
            values: [
                "code": .string(code), "name": .string(name), "password": .string(password),
                "password-verify": .string(password),
            ])
    }

    /// The node, its collectors without the `value` filled in (the address each one entered).
    private static func withoutValues(_ answer: RecordedResponse) -> [String: JSONValue] {
        answer.node.merging([
            "collectors": .array(answer.collectors.map { .object($0.filter { $0.key != "value" }) })
        ]) { $1 }
    }

    @Test("a new address: the mailed code creates the account, verified, signed in with new_user true")
    func newAddress() async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            let (id, sent) = try await Self.sendCode(fixture, to: "new@example.com")
            #expect(sent.node["id"]?.stringValue == "code")
            let code = try await peer.lastCode()
            #expect(await peer.messages().last?.contains("X-Envelope-To: new@example.com") == true)
            #expect(
                try await fixture.provider.store.user(email: "new@example.com") == nil, "no account before the code")
            let wrong = try await Self.confirm(fixture, id, code: code == "000000" ? "111111" : "000000")
            #expect(wrong.detailCodes == ["code": ["invalid_code"]])
            let created = try await Self.confirm(fixture, id, code: code)
            #expect(created.nodeType == "success")
            #expect(created.node["new_user"] == .bool(true))
            let user = try #require(try await fixture.provider.store.user(email: "new@example.com"))
            #expect(user.emailVerified && user.name == "New")
        }
    }

    @Test(
        "a taken address gets exactly the answers a new one gets; its owner a notice, with no code, and nothing changes"
    )
    func takenAddress() async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            let (newID, forNew) = try await Self.sendCode(fixture, to: "new@example.com")
            let newCode = try await peer.lastCode()
            let (takenID, forTaken) = try await Self.sendCode(fixture, to: FlowFixture.email)
            #expect(forTaken.status == forNew.status)
            #expect(Self.withoutValues(forTaken) == Self.withoutValues(forNew))
            let notice = try #require(await peer.messages().last)
            #expect(notice.contains("X-Envelope-To: \(FlowFixture.email)"))
            #expect(notice.contains("Subject: Someone tried to create an account with your address"))
            #expect(!notice.contains("Your code"))
            #expect(SMTPPeer.parts(of: notice)["text/plain"]?.contains("already has one") == true)
            // Any code is wrong for the taken address, answered as a wrong code for the new one.
            let takenAnswer = try await Self.confirm(fixture, takenID, code: newCode)
            let newAnswer = try await Self.confirm(fixture, newID, code: newCode == "000000" ? "111111" : "000000")
            #expect(takenAnswer.status == newAnswer.status)
            #expect(takenAnswer.detailCodes == newAnswer.detailCodes)
            #expect(takenAnswer.node["message"] == newAnswer.node["message"])
            let owner = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(owner.name == "Grace")
            #expect(try await fixture.signInThroughFlow().nodeType == "success", "the owner's password still works")
        }
    }

    @Test(
        "what the account would refuse (a name too long, the address as password) is refused before the code is spent"
    )
    func refusedBeforeTheCode() async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            let (id, sent) = try await Self.sendCode(fixture, to: "new@example.com")
            let name = try #require(sent.collectors.first { $0["key"]?.stringValue == "name" })
            #expect(name["validation"]?.objectValue?["regex"] != nil, "the device is told the rule")
            let code = try await peer.lastCode()
            let tooLong = String(repeating: "n", count: Accounts.maximumNameLength + 1)
            let refused = try await Self.confirm(fixture, id, code: code, name: tooLong)
            #expect(refused.detailCodes == ["name": ["regex"]])
            #expect(refused.node["message"]?.stringValue == "Use at most 256 characters for your name.")
            let address = try await Self.confirm(fixture, id, code: code, password: "New@Example.com")
            #expect(address.detailCodes == ["password": ["weak_password"]], "a rule the policy does not advertise")
            let longest = String(repeating: "n", count: Accounts.maximumNameLength)
            let created = try await Self.confirm(fixture, id, code: code, name: longest)
            #expect(created.nodeType == "success", "the code was not spent by the refusal")
            #expect(try await fixture.provider.store.user(email: "new@example.com")?.name == longest)
        }
    }
}
