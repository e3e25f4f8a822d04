import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenTestSupport
import LimenWire
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

extension TokenFixture {
    /// `method path` with the bearer `token`.
    func send(_ method: HTTPRequest.Method, _ path: String, bearer token: String?) async throws -> RecordedResponse {
        try await client.execute(
            uri: path, method: method, headers: token.map { [.authorization: "Bearer \($0)"] } ?? [:]
        ) { response in
            RecordedResponse(
                status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }

    /// Grace's tokens for the `app` client, through the `sign-in` flow.
    func graceTokens() async throws -> RecordedResponse {
        try await redeem(try #require(try await signInThroughFlow().node["code"]?.stringValue), clientID: "app")
    }
}

@Suite("The signed-in user's account: identities, unlinking (never the last), deletion with a recent sign-in")
struct MeRoutesTests {
    @Test(
        "identities: a password user has password and email, a guest none; a token is required",
        arguments: TokenBackend.allCases)
    func identities(_ backend: TokenBackend) async throws {
        try await FlowFixture.run(on: backend) { fixture in
            let grace = try await fixture.graceTokens()
            let listed = try await fixture.send(.get, "/v1/me/identities", bearer: try TokenFixture.accessToken(grace))
            #expect(listed.status == .ok)
            guard case .array(let items)? = listed.json["identities"] else {
                Issue.record("no identities array in \(listed.json)")
                return
            }
            let identities = items.compactMap(\.objectValue)
            #expect(identities.compactMap { $0["kind"]?.stringValue }.sorted() == ["email", "password"])
            #expect(identities.allSatisfy { $0["subject"]?.stringValue == FlowFixture.email })

            let guest = try await fixture.guestTokens()
            let none = try await fixture.send(.get, "/v1/me/identities", bearer: try TokenFixture.accessToken(guest))
            #expect(none.json["identities"] == .array([]))

            let anonymous = try await fixture.send(.get, "/v1/me/identities", bearer: nil)
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
        }
    }

    @Test("unlinking: the password may go while the email code signs in; the last identity stays (409); unknown 404")
    func unlink() async throws {
        try await FlowFixture.run { fixture in
            let grace = try await fixture.graceTokens()
            let token = try #require(grace["access_token"])
            let user = try #require(try await fixture.provider.store.user(email: FlowFixture.email))

            let last = try await fixture.send(.delete, "/v1/me/identities/email", bearer: token)
            #expect(last.status == .conflict)
            #expect(last.json["error"]?.stringValue == "last_identity")
            #expect(try await fixture.provider.store.user(id: user.id)?.email == FlowFixture.email)

            #expect(try await fixture.send(.delete, "/v1/me/identities/google", bearer: token).status == .notFound)

            let unlinked = try await fixture.send(.delete, "/v1/me/identities/password", bearer: token)
            #expect(unlinked.status == .ok)
            #expect(unlinked.json["removed"] == .array([.string("password")]))
            #expect(try await fixture.provider.store.user(id: user.id)?.passwordHash == nil)
            #expect(try await fixture.provider.store.identities(userID: user.id).map(\.kind) == ["email"])
            // Removing the password ends nothing: the same token still works.
            #expect(try await fixture.userInfo(token).status == .ok)
            #expect(try await fixture.signInThroughFlow().nodeType == "error", "the password no longer signs in")

            let lastAgain = try await fixture.send(.delete, "/v1/me/identities/email", bearer: token)
            #expect(lastAgain.status == .conflict)
        }
    }

    @Test(
        "unlinking the address names the password too, and never leaves only identities the server cannot sign in with",
        arguments: [false, true])
    func unlinkSaysWhatGoes(issuerConfigured: Bool) async throws {
        let upstream = TrustedIssuer(issuer: "https://id.example", audiences: ["limen"])
        let configure: (inout ServerConfiguration) -> Void = {
            if issuerConfigured { $0.trustedIssuers = [upstream] }
        }
        try await FlowFixture.run(configure: configure) { fixture in
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            _ = try await fixture.provider.store.insertIdentityIfAbsent(
                IdentityRecord(
                    kind: upstream.identityKind, subject: "g-1", userID: grace.id, createdAt: fixture.clock.now))
            let token = try #require(try await fixture.graceTokens()["access_token"])
            let unlinked = try await fixture.send(.delete, "/v1/me/identities/email", bearer: token)
            if issuerConfigured {
                #expect(unlinked.status == .ok)
                #expect(unlinked.json["removed"] == .array([.string("email"), .string("password")]))
                #expect(try await fixture.provider.store.user(id: grace.id)?.passwordHash == nil)
            } else {
                #expect(unlinked.status == .conflict)
                #expect(unlinked.json["error"]?.stringValue == "last_identity")
                #expect(try await fixture.provider.store.user(id: grace.id)?.email == FlowFixture.email)
            }
        }
    }

    @Test("deletion with a recent sign-in ends refresh and userinfo at once and removes the user's rows")
    func deleteAccount() async throws {
        try await FlowFixture.run { fixture in
            let grace = try await fixture.graceTokens()
            let user = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            _ = try await fixture.provider.store.writeProfile(
                userID: user.id, data: ["a": .number(1)], expectedRevision: 0, now: fixture.clock.now)
            let token = try #require(grace["access_token"])

            let deleted = try await fixture.send(.delete, "/v1/me", bearer: token)
            #expect(deleted.status == .noContent)
            #expect(try await fixture.provider.store.user(id: user.id) == nil)
            #expect(try await fixture.provider.store.profile(userID: user.id) == nil)
            #expect(try await fixture.provider.store.identities(userID: user.id).isEmpty)
            #expect(try await fixture.userInfo(token).status == .unauthorized)
            #expect(
                try await fixture.refresh(try #require(grace["refresh_token"]), clientID: "app").error
                    == "invalid_grant")
            #expect(try await fixture.send(.delete, "/v1/me", bearer: token).status == .unauthorized)
        }
    }

    @Test("deletion with a sign-in older than account_change_max_age is refused with RFC 9470's challenge")
    func deletionNeedsRecentSignIn() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.tokenLifetimes.accountChangeMaxAge = 120 }
        try await FlowFixture.run(configure: configure) { fixture in
            let grace = try await fixture.graceTokens()
            fixture.clock.advance(by: 121)
            let refused = try await fixture.send(.delete, "/v1/me", bearer: try TokenFixture.accessToken(grace))
            #expect(refused.status == .unauthorized)
            let challenge = try #require(refused.headers[.wwwAuthenticate])
            #expect(challenge.contains("error=\"insufficient_user_authentication\""))
            #expect(challenge.contains("max_age=120"))
            #expect(try await fixture.provider.store.user(email: FlowFixture.email) != nil)
            // A refresh keeps the sign-in's auth_time: still refused.
            let refreshed = try await fixture.refresh(try #require(grace["refresh_token"]), clientID: "app")
            let again = try await fixture.send(.delete, "/v1/me", bearer: try TokenFixture.accessToken(refreshed))
            #expect(again.status == .unauthorized)
            // Signing in again allows it.
            let fresh = try await fixture.graceTokens()
            #expect(
                try await fixture.send(.delete, "/v1/me", bearer: try TokenFixture.accessToken(fresh)).status
                    == .noContent)
        }
    }

    @Test("a guest, who has nothing to sign in again with, may delete their account whenever")
    func guestDeletes() async throws {
        let configure: (inout ServerConfiguration) -> Void = { $0.tokenLifetimes.accountChangeMaxAge = 60 }
        try await FlowFixture.run(configure: configure) { fixture in
            let guest = try await fixture.guestTokens()
            let subject = try TokenFixture.subject(of: guest)
            fixture.clock.advance(by: 300)
            #expect(
                try await fixture.send(.delete, "/v1/me", bearer: try TokenFixture.accessToken(guest)).status
                    == .noContent)
            #expect(try await fixture.provider.store.user(id: subject) == nil)
        }
    }
}
