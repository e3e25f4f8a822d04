import Foundation
import LimenOIDC
import TestSupport
import Testing

@testable import Limen

/// RFC 6750 §3 challenges as `WWW-Authenticate` carries them, with RFC 9470's `max_age`, and `deleteAccount()` when a
/// provider asks for a more recent sign-in.
@Suite("Bearer challenges and recent sign-in")
struct BearerChallengeTests {
    @Test(
        "auth-params are read as tokens or quoted strings; a comma, an equals sign or an escaped quote stays in its value",
        arguments: [
            (
                #"Bearer realm="limen", error="insufficient_user_authentication", error_description="a more recent authentication is required", max_age=300"#,
                "insufficient_user_authentication", 300 as Int?
            ),
            (#"bearer error="invalid_token""#, "invalid_token", nil),
            (
                #"Bearer error_description="x, error=\"fake\", max_age=1", error=insufficient_user_authentication"#,
                "insufficient_user_authentication", nil
            ),
            (#"Bearer max_age=-5, error="e""#, "e", nil),
            (#"Bearer max_age=12abc"#, nil, nil),
            (#"Bearer error="first", error="second""#, "first", nil),
        ] as [(String, String?, Int?)])
    func parses(header: String, error: String?, maxAge: Int?) throws {
        let challenge = try #require(BearerChallenge(header))
        #expect(challenge.error == error)
        #expect(challenge.maxAge == maxAge)
    }

    @Test(
        "not a Bearer challenge, or an oversized header, is no challenge",
        arguments: [#"Basic realm="x""#, "Bearerx error=e", "", String(repeating: "a", count: 9000)])
    func refuses(header: String) {
        #expect(BearerChallenge(header) == nil)
    }

    @Test("an unterminated quoted value ends the parameters")
    func unterminated() throws {
        let challenge = try #require(BearerChallenge(#"Bearer error="open, max_age=5"#))
        #expect(challenge.parameters.isEmpty)
    }

    @Test("deleteAccount with a sign-in too old is reauthenticationRequired(maxAge:), and the session is kept")
    func reauthentication() async throws {
        let challenge =
            #"Bearer realm="limen", error="insufficient_user_authentication", "#
            + #"error_description="a more recent authentication is required", max_age=300"#
        try await ProviderFixture.with(
            expiresIn: 3600,
            routes: [
                "DELETE /v1/me": { _ in HTTPResponse(status: 401, headers: ["WWW-Authenticate": challenge]) }
            ],
            token: { _ in .json(ProviderFixture.rotated) },
            run: { fixture in
                await #expect(throws: LimenError.account(.reauthenticationRequired(maxAge: 300))) {
                    try await fixture.client.deleteAccount()
                }
                #expect(fixture.client.state.phase == .signedIn)
                #expect(try await fixture.storedSession() != nil)
                let request = try #require(await fixture.server.log.requests.first { $0.path == "/v1/me" })
                #expect(request.method == "DELETE")
                #expect(request.header("Authorization") == "Bearer at-old")
            })
    }

    @Test("an account route's 401 invalid_token after one refresh is sessionExpired")
    func invalidToken() async throws {
        try await ProviderFixture.with(
            expiresIn: 3600,
            routes: [
                "GET /v1/me/identities": { _ in
                    HTTPResponse(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
                }
            ],
            token: { _ in .json(ProviderFixture.rotated) },
            run: { fixture in
                await #expect(throws: LimenError.sessionExpired) { try await fixture.client.identities() }
                #expect(await fixture.server.log.count(path: "/v1/me/identities") == 2, "retried once after a refresh")
            })
    }
}
