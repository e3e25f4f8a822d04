import Foundation
import LimenOIDC
import TestSupport
import Testing

@Suite("Token endpoint")
struct TokenClientTests {
    static let tokens =
        #"{"access_token":"at-1","token_type":"Bearer","expires_in":"3600","refresh_token":"rt-2","id_token":"x.y.z"}"#

    func withServer(
        answering answer: HTTPResponse,
        authentication: ClientAuthentication = .none(clientID: "app"),
        _ body: (TokenClient, TestHTTPServer) async throws -> Void
    ) async throws {
        try await TestHTTPServer.withServer(["POST /token": { _ in answer }]) { server in
            let client = TokenClient(
                metadata: server.metadata(), authentication: authentication, transport: URLSessionTransport())
            try await body(client, server)
        }
    }

    @Test("a code is exchanged with its verifier and redirect URI; a numeric-string expires_in is accepted")
    func codeExchange() async throws {
        try await withServer(answering: .json(Self.tokens)) { client, server in
            let response = try await client.exchangeCode(
                "c-1", redirectURI: URL(string: "http://127.0.0.1:1/callback")!, codeVerifier: "v-1")
            #expect(response.accessToken == "at-1")
            #expect(response.refreshToken == "rt-2")
            #expect(response.expiresIn == 3600)
            let form = try #require(await server.log.requests.first).form
            #expect(form["grant_type"] == "authorization_code")
            #expect(form["code"] == "c-1")
            #expect(form["code_verifier"] == "v-1")
            #expect(form["redirect_uri"] == "http://127.0.0.1:1/callback")
            #expect(form["client_id"] == "app")
        }
    }

    @Test("client_secret_basic form-encodes id and secret into the Authorization header and keeps them out of the body")
    func basicAuthentication() async throws {
        let auth = ClientAuthentication.clientSecretBasic(clientID: "my app", secret: "s3cr:t")
        try await withServer(answering: .json(Self.tokens), authentication: auth) { client, server in
            _ = try await client.refresh("rt-1")
            let request = try #require(await server.log.requests.first)
            let expected = "Basic " + Data("my%20app:s3cr%3At".utf8).base64EncodedString()
            #expect(request.header("Authorization") == expected)
            #expect(request.form["client_secret"] == nil)
            #expect(request.form["client_id"] == nil)
            #expect(request.form["grant_type"] == "refresh_token")
            #expect(request.form["refresh_token"] == "rt-1")
        }
    }

    @Test("client_secret_post sends id and secret in the body")
    func postAuthentication() async throws {
        let auth = ClientAuthentication.clientSecretPost(clientID: "app", secret: "s")
        try await withServer(answering: .json(Self.tokens), authentication: auth) { client, server in
            _ = try await client.refresh("rt-1", scopes: ["openid", "email"])
            let form = try #require(await server.log.requests.first).form
            #expect(form["client_id"] == "app")
            #expect(form["client_secret"] == "s")
            #expect(form["scope"] == "openid email")
            #expect(await server.log.requests.first?.header("Authorization") == nil)
        }
    }

    @Test("an RFC 6749 error body becomes a typed OAuth error with the HTTP status")
    func oauthErrorBody() async throws {
        try await withServer(answering: .json(#"{"error":"invalid_grant","error_description":"expired"}"#, status: 400))
        {
            client, _ in
            let expected = OIDCError.oauth(
                OAuthError(error: .invalidGrant, errorDescription: "expired", httpStatus: 400))
            await #expect(throws: expected) { try await client.refresh("rt-1") }
        }
    }

    @Test(
        "error answers without an OAuth body keep their HTTP status",
        arguments: [
            (400, "", OIDCError.network(.httpStatus(400))),
            (401, "<html>no</html>", OIDCError.network(.httpStatus(401))),
            (500, "oops", OIDCError.network(.httpStatus(500))),
            (503, "", OIDCError.network(.httpStatus(503))),
        ]
    )
    func statusOnlyErrors(status: Int, body: String, expected: OIDCError) async throws {
        try await withServer(answering: HTTPResponse(status: status, body: Data(body.utf8))) { client, _ in
            await #expect(throws: expected) { try await client.refresh("rt-1") }
        }
    }

    @Test("a 401 with a Basic challenge comes back as an error instead of hanging")
    func basicChallenge() async throws {
        try await withServer(
            answering: HTTPResponse(status: 401, headers: ["WWW-Authenticate": "Basic realm=\"token\""])
        ) { client, _ in
            await #expect(throws: OIDCError.network(.httpStatus(401))) { try await client.refresh("rt-1") }
        }
    }

    @Test("429 and 503 with Retry-After become rate limiting with the delay", arguments: [429, 503])
    func rateLimited(status: Int) async throws {
        try await withServer(answering: HTTPResponse(status: status, headers: ["Retry-After": "7"])) { client, _ in
            let error = await #expect(throws: OIDCError.self) { try await client.refresh("rt-1") }
            #expect(error == .network(.rateLimited(retryAfter: 7)))
            #expect(error?.isRetryable == true)
        }
    }

    @Test("a 200 that is not token JSON is an invalid response")
    func malformedSuccess() async throws {
        try await withServer(answering: .json(#"{"token_type":"Bearer"}"#)) { client, _ in
            await #expect(throws: OIDCError.invalidResponse(endpoint: "token", reason: "missing access_token")) {
                try await client.refresh("rt-1")
            }
        }
    }

    @Test("a dropped connection is a retryable network error")
    func droppedConnection() async throws {
        let dropping = try DroppingServer()
        defer { dropping.stop() }
        let metadata = ProviderMetadata(
            issuer: dropping.baseURL.absoluteString,
            authorizationEndpoint: dropping.baseURL.appendingPathComponent("authorize"),
            tokenEndpoint: dropping.baseURL.appendingPathComponent("token")
        )
        let client = TokenClient(
            metadata: metadata, authentication: .none(clientID: "app"), transport: URLSessionTransport())
        let error = await #expect(throws: OIDCError.self) { try await client.refresh("rt-1") }
        #expect(error?.isRetryable == true, "\(String(describing: error))")
        #expect(error?.code.hasPrefix("network.") == true)
    }

    @Test("token exchange sends the RFC 8693 grant and fields")
    func tokenExchange() async throws {
        try await withServer(answering: .json(Self.tokens)) { client, server in
            let request = TokenExchangeRequest(
                subjectToken: "third-party",
                subjectTokenType: TokenExchangeRequest.TokenType.idToken,
                requestedTokenType: TokenExchangeRequest.TokenType.accessToken,
                audience: ["api"],
                scopes: ["openid"]
            )
            _ = try await client.exchange(request)
            let form = try #require(await server.log.requests.first).form
            #expect(form["grant_type"] == "urn:ietf:params:oauth:grant-type:token-exchange")
            #expect(form["subject_token"] == "third-party")
            #expect(form["subject_token_type"] == "urn:ietf:params:oauth:token-type:id_token")
            #expect(form["requested_token_type"] == "urn:ietf:params:oauth:token-type:access_token")
            #expect(form["audience"] == "api")
        }
    }

    @Test("revocation sends the token with its type hint; a provider without the endpoint is unsupported")
    func revocation() async throws {
        try await TestHTTPServer.withServer(["POST /revoke": { _ in HTTPResponse(status: 200) }]) {
            server async throws in
            let client = TokenClient(
                metadata: server.metadata(), authentication: .none(clientID: "app"), transport: URLSessionTransport())
            try await client.revoke("rt-1", hint: .refreshToken)
            let form = try #require(await server.log.requests.first).form
            #expect(form["token"] == "rt-1")
            #expect(form["token_type_hint"] == "refresh_token")
            var bare = server.metadata()
            bare.revocationEndpoint = nil
            let withoutEndpoint = TokenClient(
                metadata: bare, authentication: .none(clientID: "app"), transport: URLSessionTransport())
            await #expect(throws: OIDCError.unsupported("token revocation")) {
                try await withoutEndpoint.revoke("x", hint: .accessToken)
            }
        }
    }
}
