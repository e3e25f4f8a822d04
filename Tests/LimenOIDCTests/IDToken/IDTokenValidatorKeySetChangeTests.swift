import Foundation
import LimenOIDC
import TestSupport
import Testing

/// The verifiers the JWKS cache keeps per (alg, kid) must follow the key set: a new key set, whether fetched for an
/// unknown kid or because the old one expired, is the only one tokens are checked against.
@Suite("ID token validation across key sets")
struct IDTokenValidatorKeySetChangeTests {
    typealias Fixture = ValidatorFixture

    /// Valid claims at `seconds` after the fixture's start time.
    static func claims(after seconds: TimeInterval) -> [String: JSONValue] {
        let now = Fixture.start.timeIntervalSince1970 + seconds
        return Fixture.claims(["exp": .number(now + 300), "iat": .number(now - 10)])
    }

    @Test("a kid used before a rotation is checked against the key the refetched set gives it")
    func reusedKidFollowsForcedRefresh() async throws {
        let retired = try await TestSigningKey.es256(kid: "k1")
        let successor = try await TestSigningKey.es256(kid: "k1")
        let added = try await TestSigningKey.es256(kid: "k2")
        let fixture = await Fixture(keys: [retired])
        _ = try await fixture.validator.validate(try retired.sign(Fixture.claims()))
        await fixture.transport.respond(to: Fixture.jwksURL, json: TestSigningKey.jwksJSON([successor, added]))
        _ = try await fixture.validator.validate(try added.sign(Fixture.claims()))

        await #expect(throws: IDTokenValidationError.invalidSignature) {
            try await fixture.validator.validate(try retired.sign(Fixture.claims()))
        }
        let claims = try await fixture.validator.validate(try successor.sign(Fixture.claims()))
        #expect(claims.subject == "alice")
        #expect(await fixture.jwksRequests == 2)
    }

    @Test("a kid used before the key set expired is checked against the key the new set gives it")
    func reusedKidFollowsExpiry() async throws {
        let retired = try await TestSigningKey.es256(kid: "k1")
        let successor = try await TestSigningKey.es256(kid: "k1")
        let fixture = await Fixture(keys: [retired])
        _ = try await fixture.validator.validate(try retired.sign(Fixture.claims()))
        await fixture.transport.respond(to: Fixture.jwksURL, json: TestSigningKey.jwksJSON([successor]))
        fixture.time.advance(by: 3600)

        await #expect(throws: IDTokenValidationError.invalidSignature) {
            try await fixture.validator.validate(try retired.sign(Self.claims(after: 3600)))
        }
        #expect(await fixture.jwksRequests == 2)
    }

    @Test("a token without kid accepted with one fitting key is refused once the new set has two")
    func keylessTokenFollowsNewKeySet() async throws {
        let only = try await TestSigningKey.es256(kid: nil)
        let second = try await TestSigningKey.es256(kid: "b")
        let fixture = await Fixture(keys: [only])
        _ = try await fixture.validator.validate(try only.sign(Fixture.claims(), includeKID: false))
        await fixture.transport.respond(to: Fixture.jwksURL, json: TestSigningKey.jwksJSON([only, second]))
        fixture.time.advance(by: 3600)

        await #expect(throws: IDTokenValidationError.ambiguousKey) {
            try await fixture.validator.validate(try only.sign(Self.claims(after: 3600), includeKID: false))
        }
    }
}
