import Crypto
import Foundation
import LimenOIDC
import Testing

/// Token and resource requests through a ``DPoPBinding`` (RFC 9449 §5, §7, §8, §9): the proofs they carry, the nonces,
/// and the one retry a nonce refusal gets.
@Suite("DPoP requests: proofs, ath and the nonce retry")
struct DPoPBindingTests {
    static let metadata = ProviderMetadata(
        issuer: "https://id.example.com",
        authorizationEndpoint: URL(string: "https://id.example.com/authorize")!,
        tokenEndpoint: URL(string: "https://id.example.com/token?tenant=1#x")!)
    static let api = URL(string: "https://api.example.com/v1/me?fields=all")!
    static let tokens = #"{"access_token":"at-1","token_type":"DPoP","expires_in":300,"refresh_token":"rt-2"}"#
    static let now = Date(timeIntervalSince1970: 1_767_225_600.9)

    let key = SoftwareDPoPKey()

    func binding(nonces: DPoPNonceCache = DPoPNonceCache()) -> DPoPBinding {
        DPoPBinding(key: key, nonces: nonces, now: { Self.now })
    }

    func tokenClient(_ transport: ScriptedTransport, nonces: DPoPNonceCache = DPoPNonceCache()) -> TokenClient {
        TokenClient(
            metadata: Self.metadata, authentication: .none(clientID: "app"), transport: transport,
            dpop: binding(nonces: nonces))
    }

    @Test("a token request carries a proof signed by the key: typ, jwk, fresh jti, htm POST, htu without query, iat")
    func tokenRequestProof() async throws {
        let transport = ScriptedTransport([.json(Self.tokens)])
        let response = try await tokenClient(transport).refresh("rt-1")
        #expect(response.tokenType == "DPoP")
        let request = try #require(await transport.requests.first)
        let proof = try VerifiedProof(request.headers["DPoP"])
        #expect(proof.header["typ"] == "dpop+jwt")
        #expect(proof.header["alg"] == "ES256")
        #expect(proof.publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        #expect(Set(proof.claims.keys) == ["jti", "htm", "htu", "iat"], "no ath, no nonce before the server sent one")
        #expect(proof.claims["htm"] == "POST")
        #expect(proof.claims["htu"] == "https://id.example.com/token")
        #expect(proof.claims["iat"] == 1_767_225_600)
        #expect(request.headers["Authorization"] == nil)
    }

    @Test("two requests never share a jti")
    func freshJTI() async throws {
        let transport = ScriptedTransport([.json(Self.tokens)])
        let client = tokenClient(transport)
        _ = try await client.refresh("rt-1")
        _ = try await client.refresh("rt-2")
        let jtis = try await transport.proofs.map { try VerifiedProof($0).claims["jti"] }
        #expect(jtis.count == 2 && jtis[0] != jtis[1])
    }

    @Test("use_dpop_nonce from the token endpoint is answered with exactly one retry whose proof has the nonce")
    func tokenNonceRetry() async throws {
        let transport = ScriptedTransport([.useNonce("n-1"), .json(Self.tokens, nonce: "n-2")])
        let nonces = DPoPNonceCache()
        let response = try await tokenClient(transport, nonces: nonces).refresh("rt-1")
        #expect(response.accessToken == "at-1")
        let proofs = try await transport.proofs.map { try VerifiedProof($0) }
        #expect(proofs.count == 2)
        #expect(proofs[0].claims["nonce"] == nil)
        #expect(proofs[1].claims["nonce"] == "n-1")
        #expect(proofs[0].claims["jti"] != proofs[1].claims["jti"])
        #expect(await nonces.nonce(for: Self.metadata.tokenEndpoint) == "n-2", "the latest nonce is kept")
    }

    @Test("a second use_dpop_nonce is a typed error after two requests, not a loop")
    func secondRefusal() async throws {
        let transport = ScriptedTransport([.useNonce("n-1"), .useNonce("n-2"), .json(Self.tokens)])
        let client = tokenClient(transport)
        await #expect {
            _ = try await client.refresh("rt-1")
        } throws: { error in
            guard case OIDCError.oauth(let oauth) = error else { return false }
            return oauth.error == .useDPoPNonce && oauth.httpStatus == 400
        }
        #expect(await transport.requests.count == 2)
    }

    @Test("a nonce refusal that brings no new nonce is not retried")
    func refusalWithoutNonce() async throws {
        let transport = ScriptedTransport([.useNonce(nil), .json(Self.tokens)])
        await #expect(throws: OIDCError.self) { _ = try await tokenClient(transport).refresh("rt-1") }
        #expect(await transport.requests.count == 1)
    }

    @Test("a nonce the server keeps handing out is sent from the first proof of the next request")
    func rememberedNonce() async throws {
        let transport = ScriptedTransport([.json(Self.tokens, nonce: "n-1")])
        let client = tokenClient(transport)
        _ = try await client.refresh("rt-1")
        _ = try await client.refresh("rt-2")
        let proofs = try await transport.proofs.map { try VerifiedProof($0) }
        #expect(proofs.map { $0.claims["nonce"] } == [nil, "n-1"])
    }

    @Test("a resource request goes as Authorization: DPoP with the token's ath; its 401 nonce challenge gets one retry")
    func resourceRequest() async throws {
        let transport = ScriptedTransport([.resourceUseNonce("r-1"), .json(#"{"sub":"alice"}"#)])
        let response = try await binding().send(
            HTTPRequest(method: "get", url: Self.api), accessToken: "at-1", through: transport)
        #expect(response.status == 200)
        let requests = await transport.requests
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.headers["Authorization"] == "DPoP at-1" })
        let proofs = try requests.map { try VerifiedProof($0.headers["DPoP"]) }
        #expect(proofs.allSatisfy { $0.claims["ath"] == .string(DPoP.accessTokenHash(of: "at-1")) })
        #expect(proofs.allSatisfy { $0.claims["htm"] == "GET" && $0.claims["htu"] == "https://api.example.com/v1/me" })
        #expect(proofs.map { $0.claims["nonce"] } == [nil, "r-1"])
    }

    @Test("a resource that refuses its own nonce twice gets a typed use_dpop_nonce error")
    func resourceSecondRefusal() async throws {
        let transport = ScriptedTransport([.resourceUseNonce("r-1"), .resourceUseNonce("r-2")])
        await #expect(throws: OIDCError.oauth(OAuthError(error: .useDPoPNonce, httpStatus: 401))) {
            _ = try await binding().send(HTTPRequest(url: Self.api), accessToken: "at-1", through: transport)
        }
        #expect(await transport.requests.count == 2)
    }

    @Test("a Bearer challenge naming use_dpop_nonce, or another DPoP error, is answered as it is: no retry")
    func otherChallenges() async throws {
        for challenge in [#"Bearer error="use_dpop_nonce""#, #"DPoP error="invalid_token""#] {
            let transport = ScriptedTransport([
                HTTPResponse(status: 401, headers: ["WWW-Authenticate": challenge, "DPoP-Nonce": "r-1"])
            ])
            let response = try await binding().send(HTTPRequest(url: Self.api), accessToken: "at-1", through: transport)
            #expect(response.status == 401)
            #expect(await transport.requests.count == 1)
        }
    }

    @Test("nonces are kept per origin: the token endpoint's is never sent to another server")
    func noncePerOrigin() async throws {
        let nonces = DPoPNonceCache()
        await nonces.remember(.json("{}", nonce: "n-issuer"), from: Self.metadata.tokenEndpoint)
        #expect(await nonces.nonce(for: URL(string: "https://id.example.com:443/userinfo")!) == "n-issuer")
        #expect(await nonces.nonce(for: Self.api) == nil)
        #expect(await nonces.nonce(for: URL(string: "http://id.example.com/token")!) == nil)
        #expect(await nonces.nonce(for: URL(string: "https://id.example.com:8443/token")!) == nil)
    }

    @Test("a request to a URL that cannot be an htu fails with a DPoP error before anything is sent")
    func invalidTarget() async throws {
        let transport = ScriptedTransport([.json("{}")])
        await #expect(throws: OIDCError.dpop(.invalidTargetURL)) {
            _ = try await binding().send(HTTPRequest(url: URL(string: "ftp://api.example.com/x")!), through: transport)
        }
        #expect(await transport.requests.isEmpty)
    }
}
