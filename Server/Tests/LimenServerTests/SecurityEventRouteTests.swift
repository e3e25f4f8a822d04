import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// The security events of sign-ins, tokens and account changes, each caused through its HTTP route on a live socket
/// behind a trusted proxy, so the `ip` (the forwarded address), `user_agent` and `request_id` of the request that caused
/// it can be checked.
@Suite("Security events through the routes that cause them")
struct SecurityEventRouteTests {
    static let forwardedFor = "203.0.113.9"
    static let userAgent = "LimenEventTests/1.0"

    /// The headers of a request with id `requestID`, from ``forwardedFor`` through the trusted local proxy.
    static func origin(_ requestID: String) -> HTTPFields {
        var headers: HTTPFields = [.userAgent: userAgent]
        if let name = HTTPField.Name("X-Forwarded-For") { headers[name] = forwardedFor }
        if let name = HTTPField.Name("X-Request-Id") { headers[name] = requestID }
        return headers
    }

    /// A live fixture (``FlowFixture``'s client and Grace) trusting the local proxy, with the admin token.
    static func run(
        on backend: TokenBackend, _ body: @Sendable (TokenFixture, String) async throws -> Void
    ) async throws {
        let proxies = try #require(TrustedProxies(["127.0.0.1", "::1"]))
        let trustLocalProxy: (inout ServerConfiguration) -> Void = { $0.trustedProxies = proxies }
        try await TokenFixture.run(on: backend, setup: .live, configure: trustLocalProxy) { fixture in
            try await FlowFixture.prepare(fixture)
            try await body(fixture, try await fixture.installAdminToken())
        }
    }

    /// The stored events of `type`, newest first.
    static func events(_ type: SecurityEventType, in fixture: TokenFixture) async throws -> [SecurityEventRecord] {
        try await fixture.provider.store.securityEvents(SecurityEventFilter(type: type.rawValue), limit: 100)
    }

    /// Expects `event` to carry the origin of the request `requestID`.
    static func expectOrigin(_ event: SecurityEventRecord?, _ requestID: String) {
        #expect(event?.ip == forwardedFor)
        #expect(event?.userAgent == userAgent)
        #expect(event?.requestID == requestID)
    }

    /// Expects no stored event, nor the admin API's list, to hold any of `secrets`.
    static func expectNoSecrets(_ secrets: [String], in fixture: TokenFixture, token: String) async throws {
        let stored = try await fixture.provider.store.securityEvents(SecurityEventFilter(), limit: 1000)
            .map { "\($0)" }.joined(separator: "\n")
        let listed = try await fixture.admin(.get, "/admin/events?limit=500", token: token).text
        for secret in secrets where !secret.isEmpty {
            #expect(!stored.contains(secret) && !listed.contains(secret))
        }
    }

    /// Signs Grace in through the `sign-in` flow and redeems the code; the tokens' answer.
    static func signIn(_ fixture: TokenFixture, password: String = FlowFixture.password) async throws
        -> RecordedResponse
    {
        let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
        let success = try await fixture.continueFlow(
            id, node: "credentials", action: "submit",
            values: ["email": .string(FlowFixture.email), "password": .string(password)])
        let code = try #require(success.node["code"]?.stringValue)
        return try await fixture.redeem(code, clientID: "app")
    }

    @Test(
        "a flow's sign-in is user.signed_in with its method, a wrong password, email code or guest alike",
        arguments: TokenBackend.allCases)
    func signIns(_ backend: TokenBackend) async throws {
        // Counted only once swift-metrics records somewhere: not left to whichever suite happens to run first.
        ServerMetrics.bootstrap()
        try await Self.run(on: backend) { fixture, token in
            var fixture = fixture
            fixture.headers = Self.origin("req-sign-in")
            let tokens = try await Self.signIn(fixture)
            #expect(tokens.status == .ok)
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            let signedIn = try await Self.events(.userSignedIn, in: fixture)
            #expect(signedIn.count == 1)
            #expect(signedIn.first?.user == grace.id && signedIn.first?.client == "app")
            #expect(signedIn.first?.details == #"{"method":"password"}"#)
            Self.expectOrigin(signedIn.first, "req-sign-in")
            let metrics = try await fixture.admin(.get, "/metrics", token: nil)
            #expect(metrics.text.contains(#"limen_security_events_total{type="user.signed_in"}"#), "\(metrics.text)")

            // A second apart, so that newest first is this one (events of one instant order by their random ids).
            fixture.clock.advance(by: 1)
            fixture.headers = Self.origin("req-wrong-code")
            let id = try #require(try await fixture.startFlow("email-code")["interaction"])
            _ = try await fixture.continueFlow(
                id, node: "email", action: "submit", values: ["email": .string(FlowFixture.email)])
            let wrongCode = "000000"
            let refused = try await fixture.continueFlow(
                id, node: "code", action: "submit", values: ["code": .string(wrongCode)])
            #expect(refused.status == .ok && refused.node["id"]?.stringValue == "code")
            let failed = try await Self.events(.userSignInFailed, in: fixture)
            #expect(failed.first?.details == #"{"reason":"wrong_code"}"#)
            #expect(failed.first?.user == grace.id && failed.first?.client == "app")
            Self.expectOrigin(failed.first, "req-wrong-code")

            fixture.clock.advance(by: 1)
            fixture.headers = Self.origin("req-guest")
            let guest = try #require(try await fixture.startFlow("anonymous")["interaction"])
            let success = try await fixture.continueFlow(guest, node: "guest", action: "submit")
            #expect(success.nodeType == "success")
            let anonymous = try #require(try await Self.events(.userSignedIn, in: fixture).first)
            #expect(anonymous.details == #"{"method":"anonymous"}"#)
            Self.expectOrigin(anonymous, "req-guest")
            let created = try #require(try await Self.events(.userCreated, in: fixture).first)
            #expect(created.user == anonymous.user)
            Self.expectOrigin(created, "req-guest")

            let refreshToken = try #require(tokens["refresh_token"])
            try await Self.expectNoSecrets(
                [FlowFixture.password, wrongCode, refreshToken, try #require(tokens["access_token"])], in: fixture,
                token: token)
        }
    }

    @Test(
        "failures past the lockout's threshold are user.locked_out for the account, not only sign_in_failed",
        arguments: TokenBackend.allCases)
    func lockout(_ backend: TokenBackend) async throws {
        try await Self.run(on: backend) { fixture, token in
            var fixture = fixture
            fixture.headers = Self.origin("req-lockout")
            let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
            let wrong = "wrong password!"
            for _ in 0...SignInLockout().threshold {
                _ = try await fixture.continueFlow(
                    id, node: "credentials", action: "submit",
                    values: ["email": .string(FlowFixture.email), "password": .string(wrong)])
            }
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            let failed = try await Self.events(.userSignInFailed, in: fixture)
            #expect(!failed.isEmpty && failed.count <= SignInLockout().threshold)
            #expect(failed.allSatisfy { $0.details == #"{"reason":"wrong_password"}"# && $0.user == grace.id })
            let locked = try #require(try await Self.events(.userLockedOut, in: fixture).first)
            #expect(locked.user == grace.id && locked.client == "app")
            Self.expectOrigin(locked, "req-lockout")
            try await Self.expectNoSecrets([wrong], in: fixture, token: token)
        }
    }

    @Test(
        "a spent refresh token presented again is token.reuse_detected and grant.revoked; /revoke is grant.revoked",
        arguments: TokenBackend.allCases)
    func tokens(_ backend: TokenBackend) async throws {
        try await Self.run(on: backend) { fixture, token in
            var fixture = fixture
            let first = try await fixture.signIn()
            let spent = try #require(first["refresh_token"])
            let second = try await fixture.refresh(spent)
            let next = try #require(second["refresh_token"])
            #expect(try await fixture.refresh(next).status == .ok)
            fixture.clock.advance(by: fixture.provider.configuration.tokenLifetimes.refreshReuseGrace + 1)
            fixture.headers = Self.origin("req-reuse")
            let replayed = try await fixture.refresh(spent)
            #expect(replayed.error == "invalid_grant")
            let reuse = try #require(try await Self.events(.tokenReuseDetected, in: fixture).first)
            #expect(reuse.user == TokenFixture.user.id && reuse.client == "native")
            Self.expectOrigin(reuse, "req-reuse")
            let revokedByReuse = try #require(try await Self.events(.grantRevoked, in: fixture).first)
            #expect(revokedByReuse.details == #"{"reason":"reuse"}"#)
            #expect(try await fixture.refresh(next).error == "invalid_grant")
            #expect(try await Self.events(.tokenReuseDetected, in: fixture).count == 1, "a revoked grant: no more")

            let other = try await fixture.signIn()
            let live = try #require(other["refresh_token"])
            fixture.clock.advance(by: 1)
            fixture.headers = Self.origin("req-revoke")
            let revoked = try await fixture.post(
                "/revoke", [("token", live), ("token_type_hint", "refresh_token"), ("client_id", "native")])
            #expect(revoked.status == .ok)
            let byClient = try #require(try await Self.events(.grantRevoked, in: fixture).first)
            #expect(byClient.details == #"{"reason":"revoked"}"# && byClient.client == "native")
            Self.expectOrigin(byClient, "req-revoke")
            fixture.headers = Self.origin("req-revoke-again")
            _ = try await fixture.post("/revoke", [("token", live), ("client_id", "native")])
            #expect(try await Self.events(.grantRevoked, in: fixture).count == 2, "revoked once, recorded once")
            try await Self.expectNoSecrets([spent, next, live], in: fixture, token: token)
        }
    }

    @Test(
        "removing a passkey through /v1/me is passkey.removed with the request's origin; another's passkey records nothing",
        arguments: TokenBackend.allCases)
    func passkeyRemoved(_ backend: TokenBackend) async throws {
        try await Self.run(on: backend) { fixture, token in
            var fixture = fixture
            let access = try #require(try await Self.signIn(fixture)["access_token"])
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            let id = Data([7, 7, 7])
            #expect(
                try await fixture.provider.store.insertPasskeyCredential(
                    PasskeyCredentialRecord(
                        credentialID: id, userID: grace.id, userHandle: Data([1]), publicKey: Data([0xa0]),
                        signCount: 0, isBackupEligible: true, isBackedUp: true, name: "Laptop",
                        createdAt: fixture.clock.now)))
            fixture.headers = Self.origin("req-passkey")
            var headers: HTTPFields = [.authorization: "Bearer \(access)"]
            headers = fixture.headers.merging(headers)
            let path = "/v1/me/passkeys/" + Base64URL.encode(Array(id))
            let removed = try await fixture.client.execute(uri: path, method: .delete, headers: headers) {
                $0.status
            }
            #expect(removed == .noContent)
            let event = try #require(try await Self.events(.passkeyRemoved, in: fixture).first)
            #expect(event.user == grace.id)
            Self.expectOrigin(event, "req-passkey")
            let again = try await fixture.client.execute(uri: path, method: .delete, headers: headers) { $0.status }
            #expect(again == .notFound)
            #expect(try await Self.events(.passkeyRemoved, in: fixture).count == 1)
            try await Self.expectNoSecrets([access], in: fixture, token: token)
        }
    }
}
