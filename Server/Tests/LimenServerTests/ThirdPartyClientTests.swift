import Foundation
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A relying party written by someone else — Python's Authlib, verifying the ID token with joserfc — runs
/// code + PKCE against a live Limen Server (`Tests/Peers/authlib/code_flow.py`).
@Suite(
    "A third-party client (Authlib) against a live server",
    .enabled(if: AuthlibPeer.unavailableReason == nil, "python3 with authlib, joserfc and requests is missing")
)
struct ThirdPartyClientTests {
    struct Summary: Decodable {
        let sub: String
        let alg: String
        let tokenType: String?
        let hasRefreshToken: Bool
        let replayedCodeError: String?
        let wrongVerifierError: String?
    }

    @Test(
        "Authlib signs in, verifies the ID token, and sees a replayed code and a wrong verifier refused",
        arguments: [("rp", "RS256"), ("limen-cli", "ES256")]
    )
    func codeFlow(clientID: String, alg: String) async throws {
        try await withLiveServer { provider, issuer in
            let password = "correct horse battery"
            let user = try await provider.accounts.signUp(
                email: "ada@example.com", password: password, name: "Ada", origin: RequestOrigin())
            let redirectURI = "http://127.0.0.1:9/callback"
            var secret: String?
            if clientID == "rp" {
                let registration = ClientRegistration(
                    id: clientID, kind: .confidential, redirectURIs: [redirectURI], idTokenSignedResponseAlg: alg)
                let (client, issuedSecret) = try registration.record(now: provider.now())
                try await provider.store.insertClientIfAbsent(client)
                secret = issuedSecret
            }
            var arguments = [
                AuthlibPeer.script.path, "--issuer", issuer, "--client-id", clientID, "--redirect-uri", redirectURI,
                "--email", "ada@example.com", "--password", password,
            ]
            // One argument with `=`: a random secret may start with "-", which argparse would read as an option.
            if let secret { arguments.append("--client-secret=\(secret)") }
            let output = try await PythonPeer.run(arguments)
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let summary = try decoder.decode(Summary.self, from: output)
            #expect(summary.sub == user.id)
            #expect(summary.alg == alg)
            #expect(summary.tokenType?.lowercased() == "bearer")
            #expect(summary.hasRefreshToken)
            #expect(summary.replayedCodeError == "invalid_grant")
            #expect(summary.wrongVerifierError == "invalid_grant")
        }
    }
}

/// The Authlib script.
enum AuthlibPeer {
    /// `Tests/Peers/authlib/code_flow.py` in the repository.
    static let script = PythonPeer.script("Tests/Peers/authlib/code_flow.py")

    /// Why the script cannot run, or `nil`; with `LIMEN_REQUIRE_PEERS=1` it always runs (and fails when missing).
    static let unavailableReason: String? =
        Peers.missingPythonModules("authlib, joserfc, requests", install: "pip install authlib joserfc requests")
}
