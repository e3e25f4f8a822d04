import Crypto
import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A subject token an attacker might send.
enum HostileSubjectToken: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case untrustedIssuer
    case expired
    case tooOld
    case wrongAudience
    case algNone
    case hmacWithPublicKey
    case badSignature
    case algorithmNotAllowed
    case malformed
    case wrongSubjectTokenType
    case noSubject
    case notYetValid
    case issuedInFuture

    var testDescription: String { rawValue }

    /// The token (the refusal suite trusts ES256 only, with a `max_token_age` of ten minutes).
    func token(_ fixture: ExchangeFixture) async throws -> String {
        let issuer = fixture.issuer
        let now = fixture.now
        switch self {
        case .untrustedIssuer:
            return try await issuer.token(
                issuer.claims(now: now, extra: ["iss": .string("https://untrusted.example")]), at: now)
        case .expired:
            let claims = issuer.claims(
                now: now,
                extra: [
                    "iat": .number(now.addingTimeInterval(-400).timeIntervalSince1970),
                    "exp": .number(now.addingTimeInterval(-100).timeIntervalSince1970),
                ])
            return try await issuer.token(claims, at: now)
        case .tooOld:
            let claims = issuer.claims(
                now: now,
                extra: [
                    "iat": .number(now.addingTimeInterval(-3600).timeIntervalSince1970),
                    "exp": .number(now.addingTimeInterval(300).timeIntervalSince1970),
                ])
            return try await issuer.token(claims, at: now)
        case .wrongAudience:
            return try await issuer.token(issuer.claims(now: now, extra: ["aud": .string("someone-else")]), at: now)
        case .algNone:
            return Self.compact(
                header: ["alg": .string("none"), "typ": .string("JWT")], claims: issuer.claims(now: now)) + "."
        case .hmacWithPublicKey:
            // The classic confusion: HS256 keyed with the published public key, under that key's kid.
            let key = try #require(issuer.keys.keys.first { $0.algorithm == .es256 })
            let publicKey = try JSONEncoder().encode(key.publicJWK)
            let signingInput = Self.compact(
                header: ["alg": .string("HS256"), "typ": .string("JWT"), "kid": .string(key.kid)],
                claims: issuer.claims(now: now))
            let mac = HMAC<SHA256>.authenticationCode(
                for: Data(signingInput.utf8), using: SymmetricKey(data: publicKey))
            return signingInput + "." + Base64URL.encode(Data(mac))
        case .badSignature:
            // A real signature of this key, over other claims.
            let genuine = try await issuer.token(issuer.claims(now: now), at: now).split(separator: ".")
            let other = try await issuer.token(issuer.claims(subject: "someone-else", now: now), at: now)
                .split(separator: ".")
            return [genuine[0], genuine[1], other[2]].joined(separator: ".")
        case .algorithmNotAllowed:
            return try await issuer.token(issuer.claims(now: now), algorithm: .rs256, at: now)
        case .malformed:
            return "not.a-jwt"
        case .wrongSubjectTokenType:
            return try await issuer.token(issuer.claims(now: now), at: now)
        case .notYetValid:
            let notBefore = JSONValue.number(now.addingTimeInterval(600).timeIntervalSince1970)
            return try await issuer.token(issuer.claims(now: now, extra: ["nbf": notBefore]), at: now)
        case .issuedInFuture:
            let future = now.addingTimeInterval(600).timeIntervalSince1970
            let claims = issuer.claims(
                now: now, extra: ["iat": .number(future), "exp": .number(future + 300)])
            return try await issuer.token(claims, at: now)
        case .noSubject:
            var claims = issuer.claims(now: now)
            claims["sub"] = nil
            return try await issuer.token(claims, at: now)
        }
    }

    /// The `subject_token_type` sent with it.
    var type: String {
        self == .wrongSubjectTokenType
            ? TokenExchangeRequest.TokenType.accessToken : TokenExchangeRequest.TokenType.idToken
    }

    /// `header.payload`, base64url JSON, unsigned.
    static func compact(header: [String: JSONValue], claims: [String: JSONValue]) -> String {
        let encoder = JSONEncoder()
        let headerBytes = (try? encoder.encode(header)) ?? Data()
        let claimBytes = (try? encoder.encode(claims)) ?? Data()
        return Base64URL.encode(headerBytes) + "." + Base64URL.encode(claimBytes)
    }
}

@Suite("Token exchange refusals")
struct TokenExchangeRefusalTests {
    private static func trustByJWKSURL(_ issuer: StandInIssuer) -> TrustedIssuer {
        issuer.trusted(byDiscovery: false)
    }

    private static func trustUnreachableKeys(_ issuer: StandInIssuer) -> TrustedIssuer {
        var trusted = issuer.trusted()
        trusted.jwksURL = URL(string: "http://127.0.0.1:9/jwks")  // the discard port: nothing listens
        return trusted
    }

    private static func trustES256Recent(_ issuer: StandInIssuer) -> TrustedIssuer {
        issuer.trusted(algorithms: [.es256], maxTokenAge: 600)
    }

    @Test("every untrusted or invalid subject token is the same invalid_grant", arguments: HostileSubjectToken.allCases)
    func refused(hostile: HostileSubjectToken) async throws {
        try await ExchangeFixture.run(trust: Self.trustES256Recent) { fixture in
            let response = try await fixture.exchange(try await hostile.token(fixture), type: hostile.type)
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_grant")
            #expect(response["error_description"] == TokenEndpointError.invalidGrant.errorDescription)
            #expect(response["access_token"] == nil)
            // Nobody was made for the refused token; a valid one in the same setup is accepted.
            #expect(try await fixture.tokens.provider.store.users().count == 1)
            let valid = try await fixture.exchange(try await fixture.token())
            #expect(valid.status == .ok)
        }
    }

    @Test(
        "finding 12: a subject token is exchanged once; its replay is invalid_grant until it expires, with or without jti",
        arguments: [["jti": JSONValue.string("exchange-once")], [:]])
    func replayRefused(extra: [String: JSONValue]) async throws {
        try await ExchangeFixture.run { fixture in
            let token = try await fixture.token(extra: extra)
            #expect(try await fixture.exchange(token).status == .ok)
            let replay = try await fixture.exchange(token)
            #expect(replay.status == .badRequest)
            #expect(replay.error == "invalid_grant")
            #expect(replay["access_token"] == nil)
            // The record is kept until the token expires (300 s, and the minute of leeway): the sweep keeps it till then.
            let store = fixture.tokens.provider.store
            #expect(try await store.deleteExpiredExchangedTokens(before: fixture.now.addingTimeInterval(300)) == 0)
            #expect(try await fixture.exchange(token).error == "invalid_grant")
            #expect(try await store.deleteExpiredExchangedTokens(before: fixture.now.addingTimeInterval(360)) == 1)
        }
    }

    @Test("finding 12: another token with the same issuer and jti is a replay too")
    func sameJTIRefused() async throws {
        try await ExchangeFixture.run { fixture in
            let first = try await fixture.token(extra: ["jti": .string("one-jti")])
            let second = try await fixture.token(subject: "ext-user-2", extra: ["jti": .string("one-jti")])
            #expect(try await fixture.exchange(first).status == .ok)
            #expect(try await fixture.exchange(second).error == "invalid_grant")
        }
    }

    @Test(
        "finding 12: a subject token with several audiences needs azp naming the configured one",
        arguments: [
            (String?.none, String?("invalid_grant")), ("someone-else", "invalid_grant"), (StandInIssuer.audience, nil),
        ])
    func severalAudiences(authorizedParty: String?, error: String?) async throws {
        try await ExchangeFixture.run { fixture in
            var extra: [String: JSONValue] = [
                "aud": .array([.string(StandInIssuer.audience), .string("someone-else")])
            ]
            extra["azp"] = authorizedParty.map(JSONValue.string)
            let response = try await fixture.exchange(try await fixture.token(extra: extra))
            #expect(response.error == error)
            #expect((response["access_token"] != nil) == (error == nil))
        }
    }

    @Test("an unknown kid refetches the key set once, and not again within the cooldown")
    func unknownKeyID() async throws {
        try await ExchangeFixture.run(trust: Self.trustByJWKSURL) { fixture in
            #expect(try await fixture.exchange(try await fixture.token()).status == .ok)
            #expect(fixture.issuer.jwksFetches == 1)

            let stranger = try await TokenSigner(
                keys: KeyRing(keys: [try SigningKey.generate(algorithm: .es256, now: fixture.now)]))
            let claims = fixture.issuer.claims(now: fixture.now)
            let first = try await fixture.exchange(try await stranger.sign(claims, algorithm: .es256, at: fixture.now))
            #expect(first.error == "invalid_grant")
            #expect(first["error_description"] == TokenEndpointError.invalidGrant.errorDescription)
            #expect(fixture.issuer.jwksFetches == 2)

            let another = try await TokenSigner(
                keys: KeyRing(keys: [try SigningKey.generate(algorithm: .es256, now: fixture.now)]))
            let second = try await fixture.exchange(try await another.sign(claims, algorithm: .es256, at: fixture.now))
            #expect(second.error == "invalid_grant")
            #expect(fixture.issuer.jwksFetches == 2)

            fixture.tokens.clock.advance(by: 61)
            let later = try await fixture.exchange(
                try await another.sign(fixture.issuer.claims(now: fixture.now), algorithm: .es256, at: fixture.now))
            #expect(later.error == "invalid_grant")
            #expect(fixture.issuer.jwksFetches == 3)
        }
    }

    @Test("an issuer whose keys cannot be fetched is the server's failure (server_error), and nobody is made")
    func keysUnreachable() async throws {
        try await ExchangeFixture.run(trust: Self.trustUnreachableKeys) { fixture in
            let response = try await fixture.exchange(try await fixture.token())
            #expect(response.status == .internalServerError)
            #expect(response.error == "server_error")
            #expect(try await fixture.tokens.provider.store.users().count == 1)
        }
    }

    @Test("keys found by discovery are fetched once and reused")
    func discoveryCachesKeys() async throws {
        try await ExchangeFixture.run { fixture in
            for subject in ["a", "b", "c"] {
                let response = try await fixture.exchange(try await fixture.token(subject: subject))
                #expect(response.status == .ok)
            }
            #expect(fixture.issuer.jwksFetches == 1)
        }
    }
}
