import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Parallel submissions to one interaction: counted before they are checked, and answered truthfully", .serialized)
struct InteractionRaceTests {
    /// Budgets large enough that only the interaction's and the code's own limits apply.
    static let roomyBudgets: @Sendable (inout ServerConfiguration) -> Void = {
        $0.emailCodeTryBudget = EmailCodeBudget(perHour: 1000, perDay: 1000)
    }

    /// Submits `values` to node `node` of interaction `id` once per element, all at once.
    static func parallel(
        _ fixture: TokenFixture, _ id: String, node: String, _ submissions: [[String: JSONValue]]
    ) async throws -> [RecordedResponse] {
        try await withThrowingTaskGroup(of: RecordedResponse.self) { group in
            for values in submissions {
                group.addTask { try await fixture.continueFlow(id, node: node, action: "submit", values: values) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Starts `flow` for Grace and asks for a code: the interaction, on its `code` node, and the code mailed.
    static func codeStep(_ fixture: TokenFixture, flow: String) async throws -> (id: String, code: String) {
        let id = try #require(try await fixture.startFlow(flow)["interaction"])
        _ = try await fixture.continueFlow(
            id, node: "email", action: "submit", values: ["email": .string(FlowFixture.email)])
        return (id, try #require(try await fixture.mailedCodes().last))
    }

    @Test("finding 10: 25 parallel wrong submissions against a limit of 10: ten are counted, at most ten checked")
    func parallelWrongCodes() async throws {
        try await FlowFixture.run(configure: Self.roomyBudgets) { fixture in
            let (id, code) = try await Self.codeStep(fixture, flow: "email-code")
            let wrong: JSONValue = .string(code == "000000" ? "111111" : "000000")
            let answers = try await Self.parallel(
                fixture, id, node: "code", Array(repeating: ["code": wrong], count: 25))
            // Each answer is a refusal: checked and wrong (invalid_code), over the limit unchecked
            // (too_many_attempts), or told the interaction is over. A submission that loads the interaction after the
            // tenth refusal ended it is told so unchecked, as is one that lost the race to write it: the answers alone
            // cannot tell which of those were checked, so the count below is the proof.
            let codes = answers.map { $0.node["code"]?.stringValue ?? "none" }
            #expect(Set(codes).isSubset(of: ["invalid_code", "too_many_attempts", "interaction_finished"]))
            #expect(codes.filter { $0 == "invalid_code" }.count <= FlowEngine.maximumAttempts)
            #expect(codes.contains("too_many_attempts"))
            let statuses: [String: HTTPResponse.Status] = [
                "too_many_attempts": .tooManyRequests, "interaction_finished": .conflict,
            ]
            #expect(
                zip(codes, answers).allSatisfy { code, answer in statuses[code].map { $0 == answer.status } ?? true })
            let record = try await fixture.provider.store.flowInteraction(idHash: RandomIdentifier.hash(id))
            #expect(record?.attempts == FlowEngine.maximumAttempts)
            // Refused unchecked: over the limit, or (when the tenth refusal ended the interaction first) finished.
            let after = try await fixture.continueFlow(id, node: "code", action: "submit", values: ["code": wrong])
            #expect(["too_many_attempts", "interaction_finished"].contains(after.node["code"]?.stringValue))
            #expect(
                try await fixture.provider.store.flowInteraction(idHash: RandomIdentifier.hash(id))?.attempts
                    == FlowEngine.maximumAttempts)
        }
    }

    @Test("finding 10: parallel resets: the password changes once and every answer tells the truth")
    func parallelResets() async throws {
        try await FlowFixture.run(configure: Self.roomyBudgets) { fixture in
            let (id, code) = try await Self.codeStep(fixture, flow: "password-reset")
            let password = "a brand new password"
            let right: [String: JSONValue] = [
                "code": .string(code), "password": .string(password), "password-verify": .string(password),
            ]
            var wrong = right
            wrong["code"] = .string(code == "000000" ? "111111" : "000000")
            // Four wrong tries and the right one: within the code's five, so the right one is always checked.
            let answers = try await Self.parallel(
                fixture, id, node: "code", [right] + Array(repeating: wrong, count: 4))
            let successes = answers.filter { $0.nodeType == "success" }
            #expect(successes.count == 1, "the reset that changed the password says so")
            #expect(!answers.contains { $0.status == .conflict })
            #expect(try await fixture.signInThroughFlow(password: password).nodeType == "success")
        }
    }
}
