import Foundation
import HTTPTypes
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("DPoP: a code bound to a key by dpop_jkt (RFC 9449 §10) is redeemed only with a proof by that key")
struct DPoPCodeBindingTests {
    /// A password sign-in of Grace in `sign-in` started with `dpop_jkt`: the code of its success node.
    private static func code(_ fixture: TokenFixture, thumbprint: String) async throws -> String {
        let started = try await fixture.startFlow("sign-in", bearer: nil, extra: [("dpop_jkt", thumbprint)])
        let success = try await fixture.continueFlow(
            try #require(started["interaction"]), node: "credentials", action: "submit",
            values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
        return try #require(success.node["code"]?.stringValue)
    }

    @Test("without a proof, or with another key's, the code is refused; with the bound key it gives DPoP tokens")
    func boundCode() async throws {
        try await FlowFixture.run { fixture in
            let device = DPoPTestClient(fixture: fixture)
            let thief = DPoPTestClient(fixture: fixture)

            let bare = try await device.redeem(
                try await Self.code(fixture, thumbprint: device.thumbprint), clientID: "app", proofs: [])
            #expect(bare.status == .badRequest)
            #expect(bare["error"] == "invalid_dpop_proof")
            #expect(bare["access_token"] == nil)

            let stolen = try await thief.redeem(
                try await Self.code(fixture, thumbprint: device.thumbprint), clientID: "app",
                proofs: [try thief.proof()])
            #expect(stolen["error"] == "invalid_dpop_proof")

            let bound = try await device.redeem(
                try await Self.code(fixture, thumbprint: device.thumbprint), clientID: "app",
                proofs: [try device.proof()])
            #expect(bound.status == .ok)
            #expect(bound["token_type"] == "DPoP")

            let malformed = try await fixture.startFlow("sign-in", bearer: nil, extra: [("dpop_jkt", "short")])
            #expect(malformed.status == .badRequest)
            #expect(malformed.node["code"]?.stringValue == "invalid_request")
        }
    }
}
