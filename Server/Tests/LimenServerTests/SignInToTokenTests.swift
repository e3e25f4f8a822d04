import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenTestSupport
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Sign-in to tokens: a code from the sign-in pages redeemed at /token")
struct SignInToTokenTests {
    @Test("the browser's code, with the PKCE verifier, gives tokens the SDK validates and userinfo answers for")
    func browserCodeToTokens() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let code = try #require(try await browser.signIn(fixture.client, from: form).redirect?.query["code"])

            let exchange = FormEncoding.encode([
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SignInFixture.cliRedirect),
                ("client_id", "limen-cli"), ("code_verifier", PKCE.fixture.verifier),
            ])
            let tokens = try await fixture.client.execute(
                uri: "/token", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: exchange)
            ) { response in
                #expect(response.status == .ok)
                return try JSONDecoder().decode(TokenResponse.self, from: Data(response.body.readableBytesView))
            }

            let validator = IDTokenValidator(
                issuer: fixture.issuer, clientID: "limen-cli",
                keys: JWKSCache(
                    jwksURI: try #require(URL(string: fixture.issuer + "/jwks")),
                    transport: RouterTransport(client: fixture.client), now: { fixture.clock.now }),
                now: { fixture.clock.now })
            let claims = try await validator.validate(
                try #require(tokens.idToken), nonce: "n-1", maxAge: 60, accessToken: tokens.accessToken)
            #expect(claims.subject == fixture.user.id)
            #expect(tokens.scope == "openid profile")

            let userInfo = try await fixture.client.execute(
                uri: "/userinfo", method: .get, headers: [.authorization: "Bearer \(tokens.accessToken)"]
            ) { response in
                try JSONDecoder().decode([String: JSONValue].self, from: Data(response.body.readableBytesView))
            }
            #expect(
                userInfo == [
                    "sub": .string(fixture.user.id), "name": .string("Ada"), "auth_level": .string("unverified"),
                ])
        }
    }
}
