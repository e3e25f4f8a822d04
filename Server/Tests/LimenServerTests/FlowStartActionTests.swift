import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A start that presses a button of the first node (`action`): the anonymous flow's start → code → token, and what
/// it answers when the node needs more than a press.
@Suite("A flow start that presses a button")
struct FlowStartActionTests {
    @Test("the guest button pressed at the start answers the success node at once; no interaction is stored")
    func guestAtOnce() async throws {
        try await FlowFixture.run { fixture in
            let usersBefore = try await fixture.provider.store.users().count
            let success = try await fixture.startFlow("anonymous", pressing: "submit")
            #expect(success.status == .ok)
            #expect(success.nodeType == "success")
            #expect(success.node["new_user"] == .bool(true))
            #expect(success.node["state"]?.stringValue == "s-1")
            let id = try #require(success["interaction"])
            #expect(try await fixture.provider.store.flowInteraction(idHash: RandomIdentifier.hash(id)) == nil)

            let tokens = try await fixture.redeem(try #require(success.node["code"]?.stringValue), clientID: "app")
            #expect(tokens.status == .ok)
            let subject = try TokenFixture.subject(of: tokens)
            let user = try #require(try await fixture.provider.store.user(id: subject))
            #expect(user.isAnonymous && user.email == nil)
            #expect(try await fixture.provider.store.users().count == usersBefore + 1)

            let continued = try await fixture.continueFlow(id, node: "guest", action: "submit")
            #expect(continued.status == .notFound, "the finished start left nothing to continue")
        }
    }

    @Test("pressing a button whose node needs values answers its error node; the stored interaction goes on")
    func nodeNeedsInput() async throws {
        try await FlowFixture.run { fixture in
            let refused = try await fixture.startFlow("sign-in", pressing: "submit")
            #expect(refused.status == .ok)
            #expect(refused.nodeType == "error")
            #expect(refused.node["id"]?.stringValue == "credentials")
            let id = try #require(refused["interaction"])
            #expect(try await fixture.provider.store.flowInteraction(idHash: RandomIdentifier.hash(id)) != nil)

            let success = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
            #expect(success.nodeType == "success")
        }
    }

    @Test("a button the start node does not have is an error node naming unknown_action, and makes nobody")
    func unknownAction() async throws {
        try await FlowFixture.run { fixture in
            let usersBefore = try await fixture.provider.store.users().count
            let refused = try await fixture.startFlow("anonymous", pressing: "sign-up")
            #expect(refused.nodeType == "error")
            #expect(refused.detailCodes == ["sign-up": ["unknown_action"]])
            #expect(try await fixture.provider.store.users().count == usersBefore)
        }
    }

    @Test("a start that presses a button counts against the sign-in rate: past the burst, 429 with Retry-After")
    func rateLimited() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.signInRateLimit = RateLimit(burst: 2, perSecond: 1) }
        try await FlowFixture.run(configure: configure) { fixture in
            let before = try await fixture.provider.store.users().count
            var statuses: [HTTPTypes.HTTPResponse.Status] = []
            for _ in 0..<3 {
                let answer = try await fixture.startFlow("anonymous", pressing: "submit")
                statuses.append(answer.status)
                if answer.status == .tooManyRequests {
                    #expect(answer.headers[.retryAfter] != nil)
                    #expect(answer.node["code"]?.stringValue == "too_many_requests")
                }
            }
            #expect(statuses == [.ok, .ok, .tooManyRequests])
            #expect(try await fixture.provider.store.users().count == before + 2)
            let plain = try await fixture.startFlow("anonymous")
            #expect(plain.status == .ok, "a start that presses nothing is not a sign-in attempt")
        }
    }
}
