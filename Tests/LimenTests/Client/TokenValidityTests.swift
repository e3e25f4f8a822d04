import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// GrabID's `getIdTokenInfo`, `isValidIdToken(idTokenInfo:)` and `isValidAccessToken(loginSession:)`, on stored
/// sessions and a test clock: no request is made.
@Suite("ID token info and the validity checks")
struct TokenValidityTests {
    static let issuer = "https://id.example.com"
    static let issuedAt = Date(timeIntervalSince1970: 1_800_000_000)

    /// An ID token of `issuer` for `app` issued at ``issuedAt`` for ten minutes, with `changes` applied to its claims.
    static func idToken(_ changes: [String: JSONValue] = [:]) -> String {
        let claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": "alice", "aud": "app", "nonce": "n-1",
            "iat": .number(issuedAt.timeIntervalSince1970), "exp": .number(issuedAt.timeIntervalSince1970 + 600),
        ]
        return TestJWT.unsecured(claims.merging(changes) { _, new in new })
    }

    /// A client whose store holds a session with `idToken` and an access token expiring at ``issuedAt`` + 300 s
    /// (`nil`: signed out), on a clock set to `now`.
    static func client(idToken: String?, signedIn: Bool = true, now: Date) async throws -> AuthClient {
        let store = MemoryStore()
        if signedIn {
            let session = TokenSet(
                accessToken: "at", refreshToken: "rt", idToken: idToken, expiresAt: issuedAt.addingTimeInterval(300),
                scope: "openid", subject: "alice", claims: ["sub": "alice"])
            try await store.write(try JSONEncoder().encode(session), for: "default.session")
        }
        let clock = TestNow(now)
        return AuthClient(
            configuration: Configuration(
                issuer: URL(string: issuer)!, clientID: "app", store: store, now: { clock.now }))
    }

    @Test("the stored ID token's claims, typed; none when signed out or when the provider sent no ID token")
    func info() async throws {
        let token = Self.idToken()
        let info = try #require(await Self.client(idToken: token, now: Self.issuedAt).idTokenInfo())
        #expect(info.token == token)
        #expect(info.claims.subject == "alice")
        #expect(info.claims.nonce == "n-1")
        #expect(info.claims.expiresAt == Self.issuedAt.addingTimeInterval(600))
        #expect(try await Self.client(idToken: nil, now: Self.issuedAt).idTokenInfo() == nil)
        #expect(try await Self.client(idToken: token, signedIn: false, now: Self.issuedAt).idTokenInfo() == nil)
    }

    @Test(
        "an ID token holds from its issue to its expiry, give or take the leeway (60 s)",
        arguments: [(-61.0, false), (-59, true), (0, true), (599, true), (659, true), (661, false)])
    func byTime(secondsAfterIssue: TimeInterval, valid: Bool) async throws {
        let client = try await Self.client(
            idToken: Self.idToken(), now: Self.issuedAt.addingTimeInterval(secondsAfterIssue))
        let info = try #require(await client.idTokenInfo())
        #expect(client.isValidIdToken(info) == valid)
    }

    @Test(
        "an ID token of another issuer, for another audience, for another authorized party, with several audiences and no authorized party, or not yet in force does not hold",
        arguments: [
            ["iss": "https://other.example.com"], ["aud": "other-app"],
            ["aud": ["other-app", "app"], "azp": "other-app"], ["aud": ["app", "api"]],
            ["nbf": .number(1_800_000_000 + 120)],
        ] as [[String: JSONValue]])
    func byWhom(changes: [String: JSONValue]) async throws {
        let client = try await Self.client(idToken: Self.idToken(changes), now: Self.issuedAt)
        let info = try #require(await client.idTokenInfo())
        #expect(!client.isValidIdToken(info))
    }

    @Test("several audiences hold when this client is among them and is the authorized party")
    func severalAudiences() async throws {
        let client = try await Self.client(
            idToken: Self.idToken(["aud": ["app", "api"], "azp": "app"]), now: Self.issuedAt)
        let info = try #require(await client.idTokenInfo())
        #expect(client.isValidIdToken(info))
    }

    @Test(
        "an access token is valid until the expiry the provider gave it, and not when signed out",
        arguments: [(299.0, true), (300, false), (3600, false)])
    func accessToken(secondsAfterIssue: TimeInterval, valid: Bool) async throws {
        let now = Self.issuedAt.addingTimeInterval(secondsAfterIssue)
        #expect(try await Self.client(idToken: Self.idToken(), now: now).isValidAccessToken() == valid)
        #expect(try await !Self.client(idToken: nil, signedIn: false, now: now).isValidAccessToken())
    }
}
