import Foundation
import HTTPTypes
import LimenOIDC
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("require_consent in native flows, which only first-party clients run (issue 19 finding 8)")
struct FlowConsentTests {
    @Test("a first-party client skips the consent node: the credentials give the code at once")
    func firstPartySkips() async throws {
        try await FlowFixture.run { fixture in
            let answer = try await fixture.signInThroughFlow()
            #expect(answer.nodeType == "success")
        }
    }
}
