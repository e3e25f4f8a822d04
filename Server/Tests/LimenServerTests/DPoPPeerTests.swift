import Foundation
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A DPoP client written with other people's libraries — Python's joserfc making the keys, proofs and thumbprints,
/// requests doing HTTP — signs in, reads `/userinfo` and refreshes with DPoP against a live Limen Server, and sends the
/// refusals RFC 9449 calls for (`Tests/Peers/dpop/dpop_client.py`).
@Suite(
    "An independent DPoP client (joserfc) against a live server",
    .enabled(if: DPoPPeer.unavailableReason == nil, "python3 with joserfc and requests is missing")
)
struct DPoPPeerTests {
    /// Tokens as the script found them: their `token_type`, whether the access token's `cnf.jkt` is joserfc's
    /// thumbprint of the script's key, and the `sub` `/userinfo` answered for it.
    struct Issued: Decodable, Equatable {
        let tokenType: String
        let boundToKey: Bool
        let subject: String
    }

    struct Summary: Decodable, Equatable {
        /// The code's tokens.
        let issued: Issued
        /// Whether the server sent a `DPoP-Nonce`.
        let nonceSent: Bool
        /// The refreshed tokens.
        let refreshed: Issued
        /// What each hostile request got (keys with spaces, which snake_case decoding leaves alone): the challenge's
        /// scheme and error at `/userinfo`, the error at `/token`.
        let hostile: [String: String]
    }

    @Test(
        "code, token, userinfo and refresh with DPoP; replayed jti, wrong htu, wrong ath, another key, Bearer refused",
        arguments: [false, true])
    func signInAndRefuse(nonceRequired: Bool) async throws {
        let configure = { (configuration: inout ServerConfiguration) in
            configuration.dpopNonceRequired = nonceRequired
        }
        try await withLiveServer(configure: configure) { provider, issuer in
            let (user, summary) = try await PythonPeer.runSignedInApp(
                DPoPPeer.script, provider: provider, issuer: issuer, as: Summary.self)
            #expect(
                summary
                    == Summary(
                        issued: Issued(tokenType: "DPoP", boundToKey: true, subject: user.id),
                        nonceSent: nonceRequired,
                        refreshed: Issued(tokenType: "DPoP", boundToKey: true, subject: user.id),
                        hostile: [
                            "replayed jti": "DPoP invalid_dpop_proof", "wrong htu": "DPoP invalid_dpop_proof",
                            "wrong ath": "DPoP invalid_dpop_proof", "other key": "DPoP invalid_dpop_proof",
                            "bearer scheme": "DPoP invalid_token", "refresh other key": "invalid_grant",
                            "token wrong htu": "invalid_dpop_proof",
                        ]))
        }
    }
}

/// The DPoP client script.
enum DPoPPeer {
    /// `Tests/Peers/dpop/dpop_client.py` in the repository.
    static let script = PythonPeer.script("Tests/Peers/dpop/dpop_client.py")

    /// Why the script cannot run, or `nil`; with `LIMEN_REQUIRE_PEERS=1` it always runs (and fails when missing).
    static let unavailableReason: String? = Peers.missingPythonModules(
        "joserfc, requests", install: "pip install joserfc requests")
}
