import Foundation
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A client written from AppleSignInKit's README alone (`Tests/Peers/applesigninkit/client.py`, Python's standard
/// library) against a live Limen Server whose Apple is a ``StandInIssuer``: sign-in, me, refresh with rotation, logout,
/// and a replayed refresh token ending its session.
@Suite("An AppleSignInKit-contract client (Python) against a live server")
struct AppleSignInKitClientTests {
    struct Summary: Decodable {
        struct User: Decodable, Equatable {
            let id: String
            let email: String?
            let displayName: String?
            let createdAt: String?
        }

        let user: User
        let me: User
        let refreshRotated: Bool
        let meAfterRefreshStatus: Int
        let logoutStatus: Int
        let refreshAfterLogoutStatus: Int
        let meAfterLogoutStatus: Int
        let replayedRefreshStatus: Int
        let latestAfterReplayStatus: Int
        let secondUserId: String
    }

    @Test("native sign-in, me, refresh (rotated), logout, and a replayed refresh token, as the README describes")
    func contract() async throws {
        let now = Date()
        try await StandInIssuer.with(now: now) { apple in
            let configure: (inout ServerConfiguration) -> Void = {
                $0.apple = AppleSignIn(bundleIDs: [AppleFixture.bundleID], baseURL: apple.issuer)
                AppleSessionTests.noGrace(&$0)
            }
            try await withLiveServer(configure: configure) { _, issuer in
                func identityToken(subject: String, nonce: String, extra: [String: JSONValue]) async throws -> String {
                    var claims = apple.claims(subject: subject, now: now, extra: extra)
                    claims["aud"] = .string(AppleFixture.bundleID)
                    claims["nonce"] = .string(AppleIdentityVerifier.hashedNonce(nonce))
                    return try await apple.token(claims, algorithm: .rs256, at: now)
                }
                let first = try await identityToken(
                    subject: "000111.first", nonce: "nonce-one",
                    extra: ["email": .string("kit@example.com"), "email_verified": .string("true")])
                let second = try await identityToken(subject: "000222.second", nonce: "nonce-two", extra: [:])
                let output = try await PythonPeer.run([
                    PythonPeer.script("Tests/Peers/applesigninkit/client.py").path, "--base-url", issuer,
                    "--identity-token", first, "--nonce", "nonce-one", "--second-identity-token", second,
                    "--second-nonce", "nonce-two", "--full-name", "Kit Marlowe", "--email", "kit@example.com",
                ])
                let decoder = JSONDecoder()
                decoder.keyDecodingStrategy = .convertFromSnakeCase
                let summary = try decoder.decode(Summary.self, from: output)
                #expect(summary.user.email == "kit@example.com" && summary.user.displayName == "Kit Marlowe")
                #expect(summary.me == summary.user)
                #expect(summary.refreshRotated)
                #expect(summary.meAfterRefreshStatus == 200)
                #expect(summary.logoutStatus == 200)
                #expect(summary.refreshAfterLogoutStatus == 401 && summary.meAfterLogoutStatus == 401)
                #expect(summary.replayedRefreshStatus == 401 && summary.latestAfterReplayStatus == 401)
                #expect(summary.secondUserId != summary.user.id)
            }
        }
    }
}
