import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("POST /token: authorization code grant")
struct TokenCodeGrantTests {
    @Test(
        "a code with its PKCE verifier gives an access token, an ID token and a refresh token, uncacheable",
        arguments: TokenBackend.allCases)
    func codeExchange(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let response = try await fixture.signIn()
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[.init("Pragma")!] == "no-cache")
            #expect(response["token_type"] == "Bearer")
            #expect(response.json["expires_in"] == .number(600))
            #expect(response["scope"] == "openid email profile offline_access")
            #expect(response["refresh_token"]?.count == 43)
            #expect(response["access_token"] != nil)
            #expect(response["id_token"] != nil)
        }
    }

    @Test("the ID token passes the SDK's validation against the provider's JWKS: nonce, auth_time and at_hash")
    func idTokenValidates() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.signIn()
            let idToken = try #require(response["id_token"])
            let accessToken = try #require(response["access_token"])
            let claims = try await fixture.idTokenValidator(clientID: "native")
                .validate(idToken, nonce: "n-1", maxAge: 60, accessToken: accessToken)
            #expect(claims.subject == "user-1")
            let jwt = try UnverifiedJWT(idToken)
            #expect(jwt.algorithm == "ES256")
            #expect(jwt.expiresAt == fixture.clock.now.addingTimeInterval(300))
            #expect(jwt.issuedAt == fixture.clock.now)
            #expect(jwt[claim: "auth_time"] == .number(fixture.clock.now.timeIntervalSince1970 - 30))
            #expect(jwt[claim: "at_hash"] == .string(TokenIssuer.accessTokenHash(accessToken)))

            // A tampered at_hash would be caught: the SDK checks it against the access token.
            await #expect(throws: IDTokenValidationError.accessTokenHashMismatch) {
                _ = try await fixture.idTokenValidator(clientID: "native")
                    .validate(idToken, nonce: "n-1", accessToken: accessToken + "x")
            }
        }
    }

    @Test("the ID token carries the profile claims its scope grants, and only those")
    func idTokenProfileClaims() async throws {
        try await TokenFixture.run { fixture in
            let full = try UnverifiedJWT(try #require(try await fixture.signIn()["id_token"]))
            #expect(full[claim: "email"] == TokenFixture.user.email.map(JSONValue.string))
            #expect(full[claim: "email_verified"] == .bool(TokenFixture.user.emailVerified))
            let bare = try UnverifiedJWT(try #require(try await fixture.signIn(scope: "openid")["id_token"]))
            #expect(bare[claim: "email"] == nil)
            #expect(bare[claim: "name"] == nil)
            #expect(bare.subject == TokenFixture.user.id)
        }
    }

    @Test("a client registered for RS256 gets an RS256 ID token that the SDK validates")
    func rs256IDToken() async throws {
        try await TokenFixture.run { fixture in
            let code = try await fixture.issueCode(
                clientID: "web", redirectURI: TokenFixture.webRedirect, nonce: nil)
            let response = try await fixture.post(
                "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.webRedirect),
                    ("code_verifier", PKCE.fixture.verifier),
                ],
                headers: TokenFixture.basic("web", TokenFixture.webSecret)
            )
            #expect(response.status == .ok)
            let idToken = try #require(response["id_token"])
            #expect(try UnverifiedJWT(idToken).algorithm == "RS256")
            #expect(try UnverifiedJWT(idToken)[claim: "nonce"] == nil)
            let claims = try await fixture.idTokenValidator(clientID: "web")
                .validate(idToken, accessToken: response["access_token"])
            #expect(claims.subject == "user-1")
        }
    }

    @Test("the access token is an RFC 9068 JWT: typ at+jwt, ES256, the issuer as audience, tied to its grant")
    func accessTokenClaims() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.signIn()
            let jwt = try UnverifiedJWT(try #require(response["access_token"]))
            let now = fixture.clock.now.timeIntervalSince1970
            #expect(jwt.type == "at+jwt")
            #expect(jwt.algorithm == "ES256")
            #expect(jwt.keyID == fixture.provider.keys.signingKey(for: .es256, at: fixture.provider.now())?.kid)
            #expect(jwt.issuer == "http://127.0.0.1:8080")
            #expect(jwt.audience == ["http://127.0.0.1:8080"])
            #expect(jwt.subject == "user-1")
            #expect(jwt[claim: "client_id"] == .string("native"))
            #expect(jwt[claim: "scope"] == .string("openid email profile offline_access"))
            #expect(jwt[claim: "iat"] == .number(now))
            #expect(jwt[claim: "exp"] == .number(now + 600))
            #expect(jwt[claim: "auth_time"] == .number(now - 30))
            #expect(jwt.jwtID?.count == 22)
            let grantID = try #require(jwt[claim: "grant_id"]?.stringValue)
            #expect(try await fixture.provider.store.grant(id: grantID)?.clientID == "native")
        }
    }

    @Test(
        "PKCE (RFC 7636 §4.6, RFC 9700 §2.1.1): a wrong, missing or malformed verifier is invalid_grant",
        arguments: [
            ("wrong", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXX"),
            ("missing", nil),
            ("too short", "dBjftJeZ4CVP"),
            ("not unreserved", "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEj!!"),
        ] as [(String, String?)]
    )
    func badVerifier(_ label: String, _ verifier: String?) async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.redeem(try await fixture.issueCode(), verifier: verifier)
            #expect(response.status == .badRequest, "\(label)")
            #expect(response.error == "invalid_grant", "\(label)")
            #expect(response.json["access_token"] == nil)
        }
    }

    @Test("a verifier for a code issued without a challenge is refused (PKCE downgrade, RFC 9700 §2.1.1)")
    func verifierWithoutChallenge() async throws {
        try await TokenFixture.run { fixture in
            let code = try await fixture.issueCode(
                clientID: "web", redirectURI: TokenFixture.webRedirect, challenge: nil)
            let response = try await fixture.post(
                "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.webRedirect),
                    ("code_verifier", PKCE.fixture.verifier),
                ],
                headers: TokenFixture.basic("web", TokenFixture.webSecret)
            )
            #expect(response.error == "invalid_grant")
        }
    }

    @Test("a confidential client's code without a challenge is refused unless the client is let off PKCE")
    func confidentialClientWithoutChallenge() async throws {
        try await TokenFixture.run { fixture in
            try await fixture.provider.store.insertClientIfAbsent(
                ClientRecord(
                    id: "legacy", name: "Legacy", kind: .confidential, secretHash: ClientSecret.hash("legacy-secret"),
                    redirectURIs: [TokenFixture.webRedirect], allowsNoPKCE: true, createdAt: fixture.clock.now))
            for (clientID, secret, status) in [
                ("web", TokenFixture.webSecret, HTTPResponse.Status.badRequest), ("legacy", "legacy-secret", .ok),
            ] {
                let code = try await fixture.issueCode(
                    clientID: clientID, redirectURI: TokenFixture.webRedirect, challenge: nil)
                let response = try await fixture.post(
                    "/token",
                    [
                        ("grant_type", "authorization_code"), ("code", code),
                        ("redirect_uri", TokenFixture.webRedirect),
                    ],
                    headers: TokenFixture.basic(clientID, secret))
                #expect(response.status == status, "\(clientID)")
            }
        }
    }

    @Test("a public client's code without a challenge is refused even without a verifier")
    func publicClientWithoutChallenge() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.redeem(try await fixture.issueCode(challenge: nil), verifier: nil)
            #expect(response.error == "invalid_grant")
        }
    }

    @Test(
        "a replayed code is refused and revokes its grant: the refresh token and access token stop working",
        arguments: TokenBackend.allCases)
    func replayedCodeRevokesGrant(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let code = try await fixture.issueCode()
            let first = try await fixture.redeem(code)
            #expect(first.status == .ok)
            let accessToken = try #require(first["access_token"])
            let refreshToken = try #require(first["refresh_token"])
            #expect(try await fixture.userInfo(accessToken).status == .ok)

            let replay = try await fixture.redeem(code)
            #expect(replay.status == .badRequest)
            #expect(replay.error == "invalid_grant")
            #expect(try await fixture.refresh(refreshToken).error == "invalid_grant")
            let userInfo = try await fixture.userInfo(accessToken)
            #expect(userInfo.status == .unauthorized)
            #expect(userInfo.headers[.wwwAuthenticate]?.contains("error=\"invalid_token\"") == true)
        }
    }

    @Test(
        "a code replayed as another public client is refused and leaves its grant; its own client's replay revokes it",
        arguments: TokenBackend.allCases)
    func replayAsAnotherClientLeavesGrant(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            try await fixture.provider.store.insertClientIfAbsent(
                ClientRecord(
                    id: "stranger", name: "Stranger", kind: .public, isNative: true,
                    redirectURIs: [TokenFixture.nativeRedirect], createdAt: fixture.clock.now))
            let code = try await fixture.issueCode()
            let first = try await fixture.redeem(code)
            let refreshToken = try #require(first["refresh_token"])
            let accessToken = try #require(first["access_token"])

            let stranger = try await fixture.redeem(code, clientID: "stranger")
            #expect(stranger.error == "invalid_grant")
            #expect(try await fixture.userInfo(accessToken).status == .ok)
            let refreshed = try await fixture.refresh(refreshToken)
            #expect(refreshed.status == .ok)

            #expect(try await fixture.redeem(code).error == "invalid_grant")
            #expect(try await fixture.refresh(try #require(refreshed["refresh_token"])).error == "invalid_grant")
        }
    }

    @Test("a fresh code presented by another client first stays redeemable by its own client")
    func anotherClientCannotBurnACode() async throws {
        try await TokenFixture.run { fixture in
            let code = try await fixture.issueCode()
            let web = try await fixture.post(
                "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.nativeRedirect),
                    ("code_verifier", PKCE.fixture.verifier),
                ],
                headers: TokenFixture.basic("web", TokenFixture.webSecret))
            #expect(web.error == "invalid_grant")
            #expect(try await fixture.redeem(code).status == .ok)
        }
    }

    @Test(
        "a code is refused for another redirect URI, another client, after it expires, or when unknown",
        arguments: ["redirect", "client", "expired", "unknown"]
    )
    func codeRefusals(_ case: String) async throws {
        try await TokenFixture.run { fixture in
            let code = try await fixture.issueCode()
            var fields = [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.nativeRedirect),
                ("client_id", "native"), ("code_verifier", PKCE.fixture.verifier),
            ]
            var headers = HTTPFields()
            switch `case` {
            case "redirect": fields[2].1 = "http://127.0.0.1/other"
            case "client":
                headers = TokenFixture.basic("web", TokenFixture.webSecret)
                fields.remove(at: 3)
            case "expired": fixture.clock.advance(by: 61)
            default: fields[1].1 = RandomToken.make()
            }
            let response = try await fixture.post("/token", fields, headers: headers)
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_grant")
            #expect(response["error_description"] == "the grant is invalid, expired or revoked")
        }
    }

    @Test("a missing code or redirect_uri is invalid_request", arguments: ["code", "redirect_uri"])
    func missingParameter(_ name: String) async throws {
        try await TokenFixture.run { fixture in
            let code = try await fixture.issueCode()
            let fields = [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.nativeRedirect),
                ("client_id", "native"), ("code_verifier", PKCE.fixture.verifier),
            ].filter { $0.0 != name }
            let response = try await fixture.post("/token", fields)
            #expect(response.error == "invalid_request")
            #expect(response["error_description"] == "\(name) is missing")
        }
    }

    @Test("no refresh token for a client without the refresh_token grant; no ID token without the openid scope")
    func issuedTokensFollowClientAndScope() async throws {
        try await TokenFixture.run { fixture in
            let code = try await fixture.issueCode(
                clientID: "backend", redirectURI: TokenFixture.webRedirect, scope: "email")
            let response = try await fixture.post(
                "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.webRedirect),
                    ("client_id", "backend"), ("client_secret", TokenFixture.backendSecret),
                    ("code_verifier", PKCE.fixture.verifier),
                ]
            )
            #expect(response.status == .ok)
            #expect(response["access_token"] != nil)
            #expect(response["refresh_token"] == nil)
            #expect(response["id_token"] == nil)
        }
    }
}

@Suite("PKCE fixture")
struct PKCEFixtureTests {
    @Test("the fixture is RFC 7636 Appendix B's verifier and challenge")
    func appendixB() {
        #expect(PKCE.fixture.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }
}
