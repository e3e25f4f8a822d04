import Foundation
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A passkey client written with other people's libraries — Python's py_webauthn reading the server's options and
/// checking each credential, cryptography and cbor2 making them — registers and signs in through the native flows of
/// a live Limen Server (`Tests/Peers/webauthn/passkey_client.py`).
@Suite(
    "An independent passkey client (py_webauthn) against a live server",
    .enabled(
        if: PasskeyPeer.unavailableReason == nil, "python3 with webauthn, cbor2, cryptography and requests is missing")
)
struct PasskeyPeerTests {
    struct Summary: Decodable {
        struct Hostile: Decodable {
            let replayed: [String]
            let withoutUserVerification: [String]
            let otherOrigin: [String]
        }
        /// Whether each registration answered exactly `{"type": "success", "registered": true}`.
        let registered: [Bool]
        let subjects: [String]
        let hostile: Hostile
    }

    @Test("ES256, EdDSA and RS256 passkeys (none and packed self attestation) register and sign their user in")
    func registerAndSignIn() async throws {
        try await withLiveServer { provider, issuer in
            let (user, summary) = try await PythonPeer.runSignedInApp(
                PasskeyPeer.script, provider: provider, issuer: issuer, as: Summary.self)
            #expect(summary.registered == [true, true, true])
            #expect(summary.subjects == [user.id, user.id, user.id])
            #expect(summary.hostile.replayed == ["invalid_credential"])
            #expect(summary.hostile.withoutUserVerification == ["invalid_credential"])
            #expect(summary.hostile.otherOrigin == ["invalid_credential"])
            let stored = try await provider.store.passkeyCredentials(userID: user.id)
            // Oldest first, to the second: three registered within one second may come in any order.
            #expect(Set(stored.map(\.name)) == ["key -7", "key -8", "key -257"])
            #expect(stored.count == 3)
            #expect(stored.map(\.signCount) == [1, 1, 1])
        }
    }
}

/// The passkey client script.
enum PasskeyPeer {
    /// `Tests/Peers/webauthn/passkey_client.py` in the repository.
    static let script = PythonPeer.script("Tests/Peers/webauthn/passkey_client.py")

    /// Why the script cannot run, or `nil`; with `LIMEN_REQUIRE_PEERS=1` it always runs (and fails when missing).
    static let unavailableReason: String? = Peers.missingPythonModules(
        "webauthn, cbor2, cryptography, requests", install: "pip install webauthn cbor2 cryptography requests")
}
