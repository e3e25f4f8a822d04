import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("require_consent in native flows, which only first-party clients run (issue 19 finding 8): never a consent node")
struct FlowConsentTests {
    @Test("a first-party client skips the consent node: the credentials give the code at once")
    func firstPartySkips() async throws {
        try await FlowFixture.run { fixture in
            let answer = try await fixture.signInThroughFlow()
            #expect(answer.nodeType == "success")
        }
    }

    @Test(
        "removing the client ends its native interactions: a third-party client of the same ID has none to continue"
    )
    func removedClientEndsInteractions() async throws {
        try await FlowFixture.run { fixture in
            let started = try await fixture.startFlow("sign-in")
            let id = try #require(started["interaction"])
            #expect(try await fixture.provider.removeClient(id: "app"))
            try await fixture.provider.store.insertClientIfAbsent(
                ClientRecord(
                    id: "app", name: "Not the provider's", kind: .public, isNative: true,
                    redirectURIs: [TokenFixture.nativeRedirect], isFirstParty: false, createdAt: fixture.clock.now))

            let answer = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])

            #expect(answer.status == .notFound)
            #expect(answer.nodeType == "failure")
            #expect(answer.node["code"]?.stringValue == "unknown_interaction", "\(answer.node)")
        }
    }
}
