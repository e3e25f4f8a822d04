import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("GET and POST /userinfo")
struct UserInfoTests {
    @Test(
        "a bearer token in the header gives sub, email, email_verified and name by scope",
        arguments: TokenBackend.allCases)
    func claimsByScope(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let accessToken = try #require(try await fixture.signIn()["access_token"])
            let response = try await fixture.userInfo(accessToken)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(
                response.json == [
                    "sub": .string("user-1"), "email": .string("ada@example.com"), "email_verified": .bool(true),
                    "name": .string("Ada"), "auth_level": .string("verified"),
                ])
            let emailOnly = try #require(try await fixture.signIn(scope: "openid email")["access_token"])
            #expect(try await fixture.userInfo(emailOnly).json["name"] == nil)
            #expect(try await fixture.userInfo(emailOnly).json["email"] == .string("ada@example.com"))
        }
    }

    @Test("POST with the token as the access_token form parameter works; with the header too")
    func postForm() async throws {
        try await TokenFixture.run { fixture in
            let accessToken = try #require(try await fixture.signIn()["access_token"])
            let form = try await fixture.post("/userinfo", [("access_token", accessToken)])
            #expect(form.status == .ok)
            #expect(form["sub"] == "user-1")
            let header = try await fixture.post("/userinfo", [], headers: [.authorization: "Bearer \(accessToken)"])
            #expect(header["sub"] == "user-1")
            let both = try await fixture.post(
                "/userinfo", [("access_token", accessToken)], headers: [.authorization: "Bearer \(accessToken)"])
            #expect(both.status == .badRequest)
            #expect(both.headers[.wwwAuthenticate]?.contains("error=\"invalid_request\"") == true)
            let json = try await fixture.post(
                "/userinfo", [], headers: [.authorization: "Bearer \(accessToken)", .contentType: "application/json"],
                body: "{}")
            #expect(json["sub"] == "user-1")
        }
    }

    @Test("a token in the query string is ignored: 401 with a bare Bearer challenge (RFC 6750 §3.1)")
    func queryStringIgnored() async throws {
        try await TokenFixture.run { fixture in
            let accessToken = try #require(try await fixture.signIn()["access_token"])
            let response = try await fixture.get("/userinfo?access_token=\(accessToken)")
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate] == "Bearer realm=\"limen\"")
        }
    }

    @Test(
        "an expired, garbage, forged or non-access token is 401 invalid_token",
        arguments: ["expired", "garbage", "forged", "id token", "tampered"]
    )
    func invalidTokens(_ kind: String) async throws {
        try await TokenFixture.run { fixture in
            let tokens = try await fixture.signIn()
            let accessToken = try #require(tokens["access_token"])
            var presented = accessToken
            switch kind {
            case "expired": fixture.clock.advance(by: 600)
            case "garbage": presented = "not.a.token"
            case "forged":
                // Same claims, signed by a key that is not the provider's.
                let directory = try TemporaryDirectory()
                defer { directory.remove() }
                let other = try await ServerComposition.bootstrap(configuration: .testing(directory: directory))
                await other.store.close()
                presented = try await TokenSigner(keys: other.keys).sign(
                    try UnverifiedJWT(accessToken).claims, algorithm: .es256, type: "at+jwt", at: other.now())
            case "id token": presented = try #require(tokens["id_token"])
            default:
                let parts = accessToken.split(separator: ".")
                var claims = try UnverifiedJWT(accessToken).claims
                claims["sub"] = .string("user-2")
                presented = [
                    String(parts[0]), Base64URL.encode(try JSONEncoder().encode(claims)), String(parts[2]),
                ].joined(separator: ".")
            }
            let response = try await fixture.userInfo(presented)
            #expect(response.status == .unauthorized, "\(kind)")
            #expect(response.headers[.wwwAuthenticate]?.contains("error=\"invalid_token\"") == true, "\(kind)")
        }
    }

    @Test("an access token without the openid scope is 403 insufficient_scope")
    func insufficientScope() async throws {
        try await TokenFixture.run { fixture in
            let accessToken = try #require(try await fixture.signIn(scope: "email offline_access")["access_token"])
            let response = try await fixture.userInfo(accessToken)
            #expect(response.status == .forbidden)
            #expect(response.headers[.wwwAuthenticate]?.contains("error=\"insufficient_scope\"") == true)
        }
    }
}
