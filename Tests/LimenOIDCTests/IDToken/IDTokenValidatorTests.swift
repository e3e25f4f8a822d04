import Foundation
import LimenOIDC
import TestSupport
import Testing

/// The kinds of test key, for tables.
enum KeyKind: String, CaseIterable, Sendable {
    case rs256 = "RS256"
    case ps256 = "PS256"
    case es256 = "ES256"
    case edDSA = "EdDSA"

    func make(kid: String? = "k1") async throws -> TestSigningKey {
        switch self {
        case .rs256: try await TestSigningKey.rs256(kid: kid)
        case .ps256: try await TestSigningKey.ps256(kid: kid)
        case .es256: try await TestSigningKey.es256(kid: kid)
        case .edDSA: try await TestSigningKey.edDSA(kid: kid)
        }
    }
}

@Suite("ID token validation")
struct IDTokenValidatorTests {
    typealias Fixture = ValidatorFixture

    @Test("a well-formed token signed with an allowed algorithm is accepted", arguments: KeyKind.allCases)
    func acceptsEachAlgorithm(_ kind: KeyKind) async throws {
        let key = try await kind.make()
        let fixture = await Fixture(keys: [key])
        let token = try key.sign(Fixture.claims(["email": "alice@example.com", "tenant": "acme"]))

        let claims = try await fixture.validator.validate(token, nonce: "n-0S6_WzA2Mj")

        #expect(claims.subject == "alice")
        #expect(claims.issuer == Fixture.issuer)
        #expect(claims.audience == [Fixture.clientID])
        #expect(claims.email == "alice@example.com")
        #expect(claims["tenant"] == .string("acme"))
        #expect(claims.expiresAt == Fixture.start.addingTimeInterval(300))
    }

    @Test("a token whose signature was tampered with is refused")
    func refusesBadSignature() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        let token = TestBase64URL.flippingSignatureByte(of: try key.sign(Fixture.claims()), at: 5)
        await #expect(throws: IDTokenValidationError.invalidSignature) {
            try await fixture.validator.validate(token)
        }
    }

    @Test("a token signed by another key with the same kid is refused")
    func refusesForeignKey() async throws {
        let published = try await TestSigningKey.es256(kid: "k1")
        let attacker = try await TestSigningKey.es256(kid: "k1")
        let fixture = await Fixture(keys: [published])
        await #expect(throws: IDTokenValidationError.invalidSignature) {
            try await fixture.validator.validate(try attacker.sign(Fixture.claims()))
        }
    }

    @Test("a token from another issuer is refused")
    func refusesWrongIssuer() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        let token = try key.sign(Fixture.claims(["iss": "https://evil.example.com"]))
        await #expect(
            throws: IDTokenValidationError.issuerMismatch(expected: Fixture.issuer, actual: "https://evil.example.com")
        ) {
            try await fixture.validator.validate(token)
        }
    }

    @Test("a token for another client is refused")
    func refusesWrongAudience() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        let token = try key.sign(Fixture.claims(["aud": ["other-app"]]))
        await #expect(throws: IDTokenValidationError.audienceMismatch) {
            try await fixture.validator.validate(token)
        }
    }

    @Test("a token with several audiences and another authorized party is refused")
    func refusesAuthorizedPartyMismatch() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        let mismatched = try key.sign(Fixture.claims(["aud": [.string(Fixture.clientID), "api"], "azp": "api"]))
        await #expect(throws: IDTokenValidationError.authorizedPartyMismatch) {
            try await fixture.validator.validate(mismatched)
        }
        let missing = try key.sign(Fixture.claims(["aud": [.string(Fixture.clientID), "api"]]))
        await #expect(throws: IDTokenValidationError.authorizedPartyMismatch) {
            try await fixture.validator.validate(missing)
        }
        let matching = try key.sign(
            Fixture.claims(["aud": [.string(Fixture.clientID), "api"], "azp": .string(Fixture.clientID)])
        )
        #expect(try await fixture.validator.validate(matching).authorizedParty == Fixture.clientID)
    }

    @Test("a token without a subject is refused")
    func refusesMissingSubject() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        await #expect(throws: IDTokenValidationError.missingClaim("sub")) {
            try await fixture.validator.validate(try key.sign(Fixture.claims(["sub": .null])))
        }
    }

    @Test("a token without an issue time is refused")
    func refusesMissingIssuedAt() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        await #expect(throws: IDTokenValidationError.missingClaim("iat")) {
            try await fixture.validator.validate(try key.sign(Fixture.claims(["iat": .null])))
        }
    }

    @Test("a claim of the wrong type is refused")
    func refusesWrongClaimType() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        await #expect(throws: IDTokenValidationError.invalidClaim("exp")) {
            try await fixture.validator.validate(try key.sign(Fixture.claims(["exp": "tomorrow"])))
        }
    }

    @Test("expiry is judged with the leeway", arguments: [(-59.0, true), (-60.0, false), (-61.0, false)])
    func expiryLeeway(_ secondsPastNow: TimeInterval, accepted: Bool) async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        let exp = Fixture.start.timeIntervalSince1970 + secondsPastNow
        let token = try key.sign(Fixture.claims(["exp": .number(exp), "iat": .number(exp - 600)]))
        if accepted {
            _ = try await fixture.validator.validate(token)
        } else {
            await #expect(throws: IDTokenValidationError.expired) { try await fixture.validator.validate(token) }
        }
    }

    @Test("a token issued in the future beyond the leeway is refused")
    func refusesFutureIssuedAt() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        let now = Fixture.start.timeIntervalSince1970
        _ = try await fixture.validator.validate(try key.sign(Fixture.claims(["iat": .number(now + 60)])))
        await #expect(throws: IDTokenValidationError.issuedInFuture) {
            try await fixture.validator.validate(try key.sign(Fixture.claims(["iat": .number(now + 61)])))
        }
    }

    @Test("a token not valid before a time beyond the leeway is refused")
    func refusesNotBeforeInFuture() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        let now = Fixture.start.timeIntervalSince1970
        _ = try await fixture.validator.validate(try key.sign(Fixture.claims(["nbf": .number(now + 59)])))
        await #expect(throws: IDTokenValidationError.notYetValid) {
            try await fixture.validator.validate(try key.sign(Fixture.claims(["nbf": .number(now + 61)])))
        }
    }

    @Test("a token with another nonce, or none, is refused when a nonce was sent")
    func refusesNonceMismatch() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        let token = try key.sign(Fixture.claims())
        await #expect(throws: IDTokenValidationError.nonceMismatch) {
            try await fixture.validator.validate(token, nonce: "n-0S6_WzA2Mk")
        }
        let withoutNonce = try key.sign(Fixture.claims(["nonce": .null]))
        await #expect(throws: IDTokenValidationError.nonceMismatch) {
            try await fixture.validator.validate(withoutNonce, nonce: "n-0S6_WzA2Mj")
        }
    }

    @Test("an unsecured token (alg none) is refused before any key is fetched")
    func refusesAlgNone() async throws {
        let key = try await TestSigningKey.rs256()
        let fixture = await Fixture(keys: [key])
        await #expect(throws: IDTokenValidationError.algorithmNotAllowed("none")) {
            try await fixture.validator.validate(TestJWT.unsecured(Fixture.claims()))
        }
        #expect(await fixture.jwksRequests == 0)
    }

    @Test("a token MACed with HS256 under the RSA public key is refused before any key is fetched")
    func refusesAlgorithmConfusion() async throws {
        let key = try await TestSigningKey.rs256(kid: "k1")
        let fixture = await Fixture(keys: [key])
        let publicKeyBytes = Data(TestSigningKey.jwksJSON([key]).utf8)
        let token = TestJWT.hs256(Fixture.claims(), secret: publicKeyBytes, header: ["kid": "k1"])
        await #expect(throws: IDTokenValidationError.algorithmNotAllowed("HS256")) {
            try await fixture.validator.validate(token)
        }
        #expect(await fixture.jwksRequests == 0)
    }

    @Test("a key the policy does not allow is refused even though jwt-kit could verify it")
    func refusesAlgorithmOutsidePolicy() async throws {
        let key = try await TestSigningKey.rs256()
        let fixture = await Fixture(jwks: [key.publicJWK], policy: IDTokenValidationPolicy(allowedAlgorithms: [.es256]))
        await #expect(throws: IDTokenValidationError.algorithmNotAllowed("RS256")) {
            try await fixture.validator.validate(try key.sign(Fixture.claims()))
        }
    }

    @Test("an unknown kid after a key rotation is found with exactly one refetch")
    func rotationRefetchesOnce() async throws {
        let old = try await TestSigningKey.es256(kid: "old")
        let new = try await TestSigningKey.edDSA(kid: "new")
        let fixture = await Fixture(keys: [old])
        _ = try await fixture.validator.validate(try old.sign(Fixture.claims()))
        #expect(await fixture.jwksRequests == 1)

        await fixture.transport.respond(to: Fixture.jwksURL, json: TestSigningKey.jwksJSON([old, new]))
        _ = try await fixture.validator.validate(try new.sign(Fixture.claims()))
        let claims = try await fixture.validator.validate(try new.sign(Fixture.claims()))

        #expect(claims.subject == "alice")
        #expect(await fixture.jwksRequests == 2)
    }

    @Test("a kid still unknown after the one refetch is keyNotFound")
    func unknownKidAfterRefetch() async throws {
        let published = try await TestSigningKey.es256(kid: "k1")
        let stranger = try await TestSigningKey.es256(kid: "nope")
        let fixture = await Fixture(keys: [published])
        await #expect(throws: IDTokenValidationError.keyNotFound(kid: "nope")) {
            try await fixture.validator.validate(try stranger.sign(Fixture.claims()))
        }
        #expect(await fixture.jwksRequests == 2)
    }

    @Test("a key whose own alg differs from the header's is never used")
    func keyAlgorithmMustMatch() async throws {
        let key = try await TestSigningKey.rs256(kid: "k1")
        let fixture = await Fixture(jwks: [key.jwk(adding: ["alg": "PS256"])])
        await #expect(throws: IDTokenValidationError.keyNotFound(kid: "k1")) {
            try await fixture.validator.validate(try key.sign(Fixture.claims()))
        }
    }

    @Test("a key published for encryption is never used")
    func encryptionKeyIsNotUsed() async throws {
        let key = try await TestSigningKey.es256(kid: "k1")
        let fixture = await Fixture(jwks: [key.jwk(adding: ["use": "enc"])])
        await #expect(throws: IDTokenValidationError.keyNotFound(kid: "k1")) {
            try await fixture.validator.validate(try key.sign(Fixture.claims()))
        }
    }

    @Test("a token without kid is refused when several keys fit")
    func ambiguousWithoutKid() async throws {
        let rsa = try await TestSigningKey.rs256(kid: nil)
        let other = try await TestSigningKey.ps256(kid: "pss")
        let fixture = await Fixture(keys: [rsa, other])
        await #expect(throws: IDTokenValidationError.ambiguousKey) {
            try await fixture.validator.validate(try rsa.sign(Fixture.claims(), includeKID: false))
        }
    }

    @Test("a token without kid uses the only key that fits its algorithm")
    func singleFittingKeyWithoutKid() async throws {
        let ec = try await TestSigningKey.es256(kid: "ec")
        let rsa = try await TestSigningKey.rs256(kid: "rsa")
        let fixture = await Fixture(jwks: [ec.publicJWK, rsa.jwk(adding: ["use": "sig", "alg": "RS256"])])
        let claims = try await fixture.validator.validate(try rsa.sign(Fixture.claims(), includeKID: false))
        #expect(claims.subject == "alice")
    }

    @Test("a max_age request needs auth_time, recent enough")
    func maxAgeNeedsAuthTime() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        await #expect(throws: IDTokenValidationError.missingAuthTime) {
            try await fixture.validator.validate(try key.sign(Fixture.claims()), maxAge: 300)
        }
        let now = Fixture.start.timeIntervalSince1970
        let stale = try key.sign(Fixture.claims(["auth_time": .number(now - 361)]))
        await #expect(throws: IDTokenValidationError.authenticationTooOld) {
            try await fixture.validator.validate(stale, maxAge: 300)
        }
        let recent = try key.sign(Fixture.claims(["auth_time": .number(now - 359)]))
        let claims = try await fixture.validator.validate(recent, maxAge: 300)
        #expect(claims.authTime == Date(timeIntervalSince1970: now - 359))
    }

    @Test("at_hash must match the access token it came with")
    func accessTokenHash() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        let accessToken = "jHkWEdUXMU1BwAsC4vtUsZwnNjm"
        let token = try key.sign(Fixture.claims(["at_hash": .string(TestJWT.sha256AccessTokenHash(accessToken))]))

        #expect(try await fixture.validator.validate(token, accessToken: accessToken).accessTokenHash != nil)
        await #expect(throws: IDTokenValidationError.accessTokenHashMismatch) {
            try await fixture.validator.validate(token, accessToken: "another-access-token")
        }
    }

    @Test("a token that is not three base64url segments is malformed")
    func malformedToken() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        await #expect {
            try await fixture.validator.validate("not-a-jwt")
        } throws: { error in
            (error as? IDTokenValidationError)?.code == "id_token.malformed"
        }
    }

    @Test("an unreachable key set is reported as retryable")
    func jwksUnavailable() async throws {
        let key = try await TestSigningKey.es256()
        let fixture = await Fixture(keys: [key])
        await fixture.transport.fail(Fixture.jwksURL, with: .offline("no route"))
        await #expect(throws: IDTokenValidationError.jwksUnavailable(.offline("no route"))) {
            try await fixture.validator.validate(try key.sign(Fixture.claims()))
        }
        #expect(IDTokenValidationError.jwksUnavailable(.offline("no route")).isRetryable)
    }
}
