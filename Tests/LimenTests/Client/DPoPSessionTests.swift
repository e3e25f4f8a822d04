import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// A DPoP session (``Configuration/dpop``) against a provider on a loopback server: what ``AuthClient`` sends with a
/// DPoP-bound token, and with a bearer token the provider chose to issue instead (RFC 9449 §5).
@Suite("DPoP sessions: the token type decides the scheme")
struct DPoPSessionTests {
    static let flowFailure = #"{"interaction":"i-1","node":{"type":"failure","code":"x","message":"x"}}"#
    static let bearerTokens =
        #"{"access_token":"at-new","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-2"}"#

    /// A client with DPoP on and a stored DPoP-bound session, of a provider whose token endpoint answers `tokens` and
    /// whose `sign-in` flow starts with `flowStart`.
    func withClient(
        tokens: String,
        flowStart: @escaping TestHTTPServer.Handler = { _ in .json(Self.flowFailure) },
        _ body: (AuthClient, TestHTTPServer) async throws -> Void
    ) async throws {
        let issuer = IssuerBox()
        let routes: [String: TestHTTPServer.Handler] = [
            "GET /.well-known/openid-configuration": { _ in
                let base = await issuer.value
                return .json(
                    #"{"issuer":"\#(base)","authorization_endpoint":"\#(base)/authorize","token_endpoint":"\#(base)/token"}"#
                )
            },
            "POST /token": { _ in .json(tokens) },
            "GET /api": { _ in .json("{}") },
            "POST /flows/sign-in": flowStart,
        ]
        try await TestHTTPServer.withServer(routes) { server in
            await issuer.set(server.baseURL.absoluteString)
            let store = MemoryStore()
            let session = TokenSet(
                accessToken: "at-old", refreshToken: "rt-1", idToken: nil, expiresAt: Date().addingTimeInterval(3600),
                scope: "openid", subject: "alice", claims: [:], tokenType: "DPoP")
            try await store.write(try JSONEncoder().encode(session), for: "default.session")
            var configuration = Configuration(
                issuer: server.baseURL, clientID: "app", store: store, transport: URLSessionTransport())
            configuration.dpop = SoftwareDPoPKeys()
            configuration.redirectURI = URL(string: "com.example.app:/cb")
            try await body(AuthClient(configuration: configuration), server)
        }
    }

    @Test("a DPoP-bound token goes as Authorization: DPoP with a proof carrying its ath")
    func dpopBound() async throws {
        try await withClient(tokens: Self.bearerTokens) { client, server in
            let response = try await client.authorizedRequest(HTTPRequest(url: server.url("api")))
            #expect(response.status == 200)
            let sent = try #require(await server.log.requests.last { $0.path == "/api" })
            #expect(sent.header("Authorization") == "DPoP at-old")
            let proof = try #require(sent.header("DPoP"))
            let claims = try UnverifiedJWT(proof).claims
            #expect(claims["ath"] == .string(DPoP.accessTokenHash(of: "at-old")))
            #expect(claims["htm"] == "GET")
        }
    }

    @Test(
        "a provider that answers a DPoP refresh with a Bearer token: kept as Bearer, and sent as one, without a proof")
    func bearerAnswer() async throws {
        try await withClient(tokens: Self.bearerTokens) { client, server in
            #expect(try await client.refresh() == "at-new")
            let refresh = try #require(await server.log.requests.last { $0.path == "/token" })
            #expect(refresh.header("DPoP") != nil, "the token request carried a proof")
            let tokens = try #require(await client.currentTokens())
            #expect(tokens.tokenType == "Bearer" && !tokens.isDPoPBound)
            _ = try await client.authorizedRequest(HTTPRequest(url: server.url("api")))
            let sent = try #require(await server.log.requests.last { $0.path == "/api" })
            #expect(sent.header("Authorization") == "Bearer at-new")
            #expect(sent.header("DPoP") == nil)
        }
    }

    @Test("a flow start binds its code to the session's DPoP key: dpop_jkt is the thumbprint of the proofs' key")
    func codeBoundToKey() async throws {
        try await withClient(tokens: Self.bearerTokens) { client, server in
            _ = await client.startFlow("sign-in")
            let start = try #require(await server.log.requests.last { $0.path == "/flows/sign-in" })
            let bound = try #require(start.form["dpop_jkt"])
            _ = try await client.authorizedRequest(HTTPRequest(url: server.url("api")))
            let sent = try #require(await server.log.requests.last { $0.path == "/api" })
            let proof = try UnverifiedJWT(try #require(sent.header("DPoP")))
            let key = JSONWebKey(parameters: try #require(proof.header["jwk"]?.objectValue))
            #expect(bound == key.thumbprint)
        }
    }

    /// A flow start of a server that asks for its nonce (RFC 9449 §9): refused with `use_dpop_nonce` and
    /// `DPoP-Nonce: n-1` unless the proof carries `accepted`.
    static func nonceDemandingStart(accepting accepted: String?) -> TestHTTPServer.Handler {
        { request in
            let proof = request.header("DPoP").flatMap { try? UnverifiedJWT($0) }
            if let accepted, proof?.claims["nonce"] == .string(accepted) { return .json(Self.flowFailure) }
            return .json(
                #"{"node":{"type":"failure","code":"use_dpop_nonce","message":"use the nonce"}}"#, status: 401,
                headers: ["WWW-Authenticate": #"DPoP error="use_dpop_nonce""#, "DPoP-Nonce": "n-1"])
        }
    }

    @Test("a flow start refused with use_dpop_nonce is sent once more with the nonce and a fresh proof")
    func flowStartNonceRetry() async throws {
        try await withClient(tokens: Self.bearerTokens, flowStart: Self.nonceDemandingStart(accepting: "n-1")) {
            client, server in
            guard case .failure(let failure) = await client.startFlow("sign-in") else {
                Issue.record("the stub's flow does not go on")
                return
            }
            #expect(failure.cause == .server(code: "x", message: "x"), "the retry reached the flow")
            let starts = await server.log.requests.filter { $0.path == "/flows/sign-in" }
            try #require(starts.count == 2)
            let proofs = try starts.map { try UnverifiedJWT(try #require($0.header("DPoP"))).claims }
            #expect(proofs[0]["nonce"] == nil && proofs[1]["nonce"] == "n-1")
            #expect(proofs[0]["jti"] != proofs[1]["jti"])
            #expect(starts.allSatisfy { $0.header("Authorization") == "DPoP at-old" })
        }
    }

    @Test("a flow start refused with use_dpop_nonce twice fails with that error after exactly one retry")
    func flowStartNonceRefusedTwice() async throws {
        try await withClient(tokens: Self.bearerTokens, flowStart: Self.nonceDemandingStart(accepting: nil)) {
            client, server in
            guard case .failure(let failure) = await client.startFlow("sign-in") else {
                Issue.record("a refused start went on")
                return
            }
            guard case .client(.oauth(let refusal)) = failure.cause else {
                Issue.record("the cause is \(failure.cause), not the OAuth refusal")
                return
            }
            #expect(refusal.error == .useDPoPNonce && failure.cause.code == "oauth.use_dpop_nonce")
            #expect(await server.log.count(path: "/flows/sign-in") == 2)
        }
    }

    @Test("signing out deletes the DPoP key from the store")
    func signOutDeletesKey() async throws {
        try await withClient(tokens: Self.bearerTokens) { client, server in
            _ = try await client.authorizedRequest(HTTPRequest(url: server.url("api")))
            #expect(try await client.configuration.store.read("default.dpop_key") != nil)
            _ = await client.signOut(revoke: false)
            #expect(try await client.configuration.store.read("default.dpop_key") == nil)
        }
    }
}
