import Foundation
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The real server on a random loopback port")
struct LiveServerTests {
    @Test("the SDK's discovery finds the exact issuer and its JWKS cache reads both signing keys")
    func sdkAgainstLiveServer() async throws {
        try await withLiveServer { provider, issuer in
            let port = try #require(URLComponents(string: issuer)?.port)
            #expect(issuer == "http://127.0.0.1:\(port)")
            #expect(port != 0)

            let transport = URLSessionTransport.forLiveTests()
            let discovery = ProviderDiscovery(issuer: try #require(URL(string: issuer)), transport: transport)
            let metadata = try await discovery.metadata()
            #expect(metadata.issuer == issuer)
            #expect(metadata.authorizationEndpoint.absoluteString == issuer + "/authorize")
            #expect(metadata.codeChallengeMethodsSupported == ["S256"])
            #expect(metadata.authorizationResponseIssParameterSupported == true)

            let jwksURI = try #require(metadata.jwksURI)
            let keySet = try await JWKSCache(jwksURI: jwksURI, transport: transport).keySet()
            #expect(Set(keySet.keys.compactMap(\.keyID)) == Set(provider.keys.keys.map(\.kid)))
            #expect(Set(keySet.keys.compactMap(\.algorithm)) == ["ES256", "RS256"])
            #expect(keySet.keys.allSatisfy { $0.use == "sig" })

            // An ID token signed with each key passes the SDK's full validation against the live JWKS.
            let signer = try await TokenSigner(keys: provider.keys)
            let validator = IDTokenValidator(
                issuer: metadata.issuer,
                clientID: "limen-cli",
                keys: JWKSCache(jwksURI: jwksURI, transport: transport)
            )
            let now = Date().timeIntervalSince1970.rounded(.down)
            for algorithm in SigningAlgorithm.allCases {
                let idToken = try await signer.sign(
                    [
                        "iss": .string(issuer), "aud": .string("limen-cli"), "sub": .string("user-1"),
                        "iat": .number(now), "exp": .number(now + 300), "nonce": .string("n-1"),
                    ],
                    algorithm: algorithm,
                    at: Date(timeIntervalSince1970: now)
                )
                let claims = try await validator.validate(idToken, nonce: "n-1")
                #expect(claims.subject == "user-1")
            }
        }
    }

    @Test("an authorization request built by the SDK for limen-cli passes the live server's validation")
    func sdkAuthorizationRequestAccepted() async throws {
        try await withLiveServer { provider, issuer in
            let transport = URLSessionTransport.forLiveTests()
            let metadata = try await ProviderDiscovery.fetch(
                issuer: try #require(URL(string: issuer)),
                transport: transport
            )
            // What the CLI sends: a loopback redirect on a port of its own, PKCE S256, state and nonce.
            var request = AuthorizationRequest(
                clientID: "limen-cli",
                redirectURI: try #require(URL(string: "http://127.0.0.1:49152/callback")),
                scopes: ["openid", "profile", "offline_access"]
            )
            request.loginHint = "ada@example.com"
            let url = request.url(authorizationEndpoint: metadata.authorizationEndpoint)
            let accepted = try await transport.send(HTTPRequest(url: url, headers: ["Accept": "application/json"]))
            #expect(accepted.status == 200, "validation passed: the sign-in page")
            #expect(accepted.header("Content-Type")?.hasPrefix("text/html") == true)

            request.redirectURI = try #require(URL(string: "http://127.0.0.1:49152/elsewhere"))
            let refused = try await transport.send(
                HTTPRequest(
                    url: request.url(authorizationEndpoint: metadata.authorizationEndpoint),
                    headers: ["Accept": "application/json"]
                )
            )
            #expect(refused.status == 400)
        }
    }

    @Test(
        "the SDK exchanges a code, validates the ID token, reads userinfo, refreshes and revokes against the live server"
    )
    func sdkTokenLifecycle() async throws {
        try await withLiveServer { provider, issuer in
            let transport = URLSessionTransport.forLiveTests()
            let metadata = try await ProviderDiscovery.fetch(
                issuer: try #require(URL(string: issuer)), transport: transport)
            try await provider.store.insertUserIfAbsent(
                UserRecord(id: "user-1", email: "ada@example.com", emailVerified: true, name: "Ada", createdAt: Date()))
            // What /authorize stores for the CLI's loopback redirect.
            let pkce = PKCE()
            let code = RandomToken.make()
            let redirectURI = try #require(URL(string: "http://127.0.0.1:49152/callback"))
            try await provider.store.insertAuthorizationCode(
                AuthorizationCodeRecord(
                    codeHash: RandomIdentifier.hash(code), clientID: "limen-cli",
                    redirectURI: redirectURI.absoluteString,
                    subject: "user-1", scope: "openid email profile offline_access", nonce: "n-1",
                    codeChallenge: pkce.challenge, authTime: Date(), expiresAt: Date().addingTimeInterval(60)
                )
            )
            let tokens = TokenClient(
                metadata: metadata, authentication: .none(clientID: "limen-cli"), transport: transport)

            let issued = try await tokens.exchangeCode(code, redirectURI: redirectURI, codeVerifier: pkce.verifier)
            let validator = IDTokenValidator(
                issuer: issuer, clientID: "limen-cli",
                keys: JWKSCache(jwksURI: try #require(metadata.jwksURI), transport: transport))
            let claims = try await validator.validate(
                try #require(issued.idToken), nonce: "n-1", accessToken: issued.accessToken)
            let userInfo = try await UserInfo.fetch(
                from: try #require(metadata.userinfoEndpoint), accessToken: issued.accessToken,
                expectedSubject: claims.subject, transport: transport)
            #expect(userInfo.email == "ada@example.com")
            #expect(userInfo.name == "Ada")

            let refreshed = try await tokens.refresh(try #require(issued.refreshToken), scopes: ["openid"])
            #expect(refreshed.scope == "openid")
            let successor = try #require(refreshed.refreshToken)
            try await tokens.revoke(successor, hint: .refreshToken)
            await #expect {
                _ = try await tokens.refresh(successor)
            } throws: { error in
                guard case .oauth(let oauth) = error as? OIDCError else { return false }
                return oauth.error == .invalidGrant
            }
        }
    }
}
