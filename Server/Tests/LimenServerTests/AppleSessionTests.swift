import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Sign in with Apple: refresh, logout and me (the AppleSignInKit contract)")
struct AppleSessionTests {
    /// No reuse grace at all (negative: not even a replay within the same second is answered again), so that a
    /// replayed refresh token is reuse at once.
    static let noGrace: @Sendable (inout ServerConfiguration) -> Void = {
        $0.tokenLifetimes.refreshReuseGrace = -1
    }

    @Test("a refresh rotates the refresh token; the old one presented after the new one was used ends the session")
    func rotationAndReuse() async throws {
        try await AppleFixture.run(configure: Self.noGrace) { fixture in
            let signedIn = try await fixture.signIn(try await fixture.identityToken())
            let first = try #require(signedIn["refreshToken"])
            let refreshed = try await fixture.refresh(first)
            #expect(refreshed.status == .ok)
            #expect(Set(refreshed.json.keys) == ["accessToken", "refreshToken", "expiresIn"])
            let second = try #require(refreshed["refreshToken"])
            #expect(second != first)
            let accessToken = try #require(refreshed["accessToken"])
            #expect(try await fixture.me(accessToken).status == .ok)
            let third = try await fixture.refresh(second)
            #expect(third.status == .ok)

            let replayed = try await fixture.refresh(first)
            #expect(replayed.status == .unauthorized)
            #expect(replayed.error == "invalid_grant" && replayed.json["success"] == .bool(false))
            let latestRefresh = try #require(third["refreshToken"])
            let latestAccess = try #require(third["accessToken"])
            #expect(try await fixture.refresh(latestRefresh).status == .unauthorized)
            #expect(try await fixture.me(latestAccess).status == .unauthorized)
        }
    }

    @Test("after logout the refresh token and the access token are refused")
    func logoutThenRefresh() async throws {
        try await AppleFixture.run { fixture in
            let signedIn = try await fixture.signIn(try await fixture.identityToken())
            let accessToken = try #require(signedIn["accessToken"])
            let loggedOut = try await fixture.logout(accessToken)
            #expect(loggedOut.status == .ok)
            #expect(loggedOut.json == ["success": .bool(true)])
            let refreshToken = try #require(signedIn["refreshToken"])
            let refresh = try await fixture.refresh(refreshToken)
            #expect(refresh.status == .unauthorized)
            #expect(try await fixture.me(accessToken).status == .unauthorized)
            #expect(try await fixture.logout(accessToken).status == .unauthorized)
        }
    }

    @Test("GET /auth/me answers the user; without a valid bearer token, 401 with a challenge")
    func me() async throws {
        try await AppleFixture.run { fixture in
            let signedIn = try await fixture.signIn(
                try await fixture.identityToken(extra: [
                    "email": .string("kit@example.com"), "email_verified": .bool(true),
                ]),
                fullName: "Kit")
            let accessToken = try #require(signedIn["accessToken"])
            let me = try await fixture.me(accessToken)
            #expect(me.status == .ok)
            #expect(Set(me.json.keys) == ["user"])
            #expect(me.json["user"] == signedIn.json["user"])

            let missing = try await fixture.me(nil)
            #expect(missing.status == .unauthorized && missing.error == "invalid_token")
            #expect(missing.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            #expect(try await fixture.me("not-a-token").status == .unauthorized)
            let refreshToken = try #require(signedIn["refreshToken"])
            #expect(try await fixture.me(refreshToken).status == .unauthorized)
        }
    }

    @Test(
        "bad bodies are refused cleanly",
        arguments: [
            ("{", "application/json", HTTPResponse.Status.badRequest),
            ("[]", "application/json", .badRequest),
            (#"{"nonce": "n"}"#, "application/json", .badRequest),
            (#"{"identityToken": "t", "nonce": 7}"#, "application/json", .badRequest),
            (#"{"identityToken": "t", "nonce": "n", "nonce": "m"}"#, "application/json", .badRequest),
            (
                #"{"identityToken": "t", "nonce": "\#(String(repeating: "n", count: 600))"}"#, "application/json",
                .badRequest
            ),
            (
                #"{"identityToken": "t", "nonce": "n", "fullName": "\#(String(repeating: "é", count: 300))"}"#,
                "application/json", .badRequest
            ),
            (
                #"{"identityToken": "\#(String(repeating: "t", count: 20_000))", "nonce": "n"}"#, "application/json",
                .contentTooLarge
            ),
            ("identityToken=t&nonce=n", "application/x-www-form-urlencoded", .unsupportedMediaType),
        ])
    func badBodies(body: String, contentType: String, status: HTTPResponse.Status) async throws {
        try await AppleFixture.run { fixture in
            let response = try await fixture.postJSON(AppleSignInKitRoutes.nativePath, body, contentType: contentType)
            #expect(response.status == status)
            #expect(response.json["success"] == .bool(false))
            let refresh = try await fixture.postJSON("/auth/refresh", body, contentType: contentType)
            #expect(refresh.status.code >= 400 && refresh.status.code < 500)
        }
    }

    @Test("without the apple setting the routes do not exist")
    func offByDefault() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post(
                AppleSignInKitRoutes.nativePath, [], headers: [.contentType: "application/json"], body: "{}")
            #expect(response.status == .notFound)
        }
    }
}
