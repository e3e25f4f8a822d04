import Foundation
import LimenOIDC
import LimenWire
import TestSupport
import Testing

@testable import Limen

/// Two clients on one secure store, as an app and its extension: the DPoP key each presents follows the session it
/// holds, so a sign-in by the other process is presented with the key stored with it.
@Suite("DPoP keys of clients sharing a store")
struct SharedDPoPKeyTests {
    /// The public key of the last proof `server` received at `/api`, and that request's `Authorization`.
    func lastProof(_ server: TestHTTPServer) async throws -> (key: String?, authorization: String?) {
        let sent = try #require(await server.log.requests.last { $0.path == "/api" })
        let proof = try UnverifiedJWT(try #require(sent.header("DPoP")))
        let jwk = JSONWebKey(parameters: try #require(proof.header["jwk"]?.objectValue))
        return (jwk.thumbprint, sent.header("Authorization"))
    }

    @Test("after another client signed out and in again, a client that reloaded the session presents the new key")
    func keyFollowsTheSession() async throws {
        try await DPoPSessionTests().withClient(tokens: DPoPSessionTests.bearerTokens) { app, server in
            let store = app.configuration.store
            let widget = AuthClient(configuration: app.configuration)
            _ = try await widget.authorizedRequest(HTTPRequest(url: server.url("api")))
            _ = try await app.authorizedRequest(HTTPRequest(url: server.url("api")))
            let shared = try await lastProof(server).key

            // The app signs out and in again: a new key, and a new session bound to it, in the store.
            _ = await app.signOut(revoke: false)
            let key = SoftwareDPoPKey()
            try await store.write(key.persistentRepresentation, for: "default.dpop_key")
            let session = TokenSet(
                accessToken: "at-2", refreshToken: "rt-2", idToken: nil, expiresAt: Date().addingTimeInterval(3600),
                scope: "openid", subject: "alice", claims: [:], tokenType: "DPoP")
            try await store.write(try JSONEncoder().encode(session), for: "default.session")

            await widget.reloadSharedSession()
            _ = try await widget.authorizedRequest(HTTPRequest(url: server.url("api")))
            let (presented, authorization) = try await lastProof(server)
            #expect(authorization == "DPoP at-2")
            #expect(presented == DPoPProofMaker(key: key).thumbprint && presented != shared)
        }
    }
}
