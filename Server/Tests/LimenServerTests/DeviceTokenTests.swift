import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("/token with the device code grant (RFC 8628 §3.4–§3.5)")
struct DeviceTokenTests {
    /// Records the user's decision on `deviceCode` as the confirmation page would.
    private func decide(_ fixture: SignInFixture, _ deviceCode: String, _ decision: DeviceAuthorizationDecision)
        async throws
    {
        let decided = try await fixture.provider.store.decideDeviceAuthorization(
            deviceCodeHash: RandomIdentifier.hash(deviceCode), decision: decision, now: fixture.clock.now)
        #expect(decided)
    }

    @Test("before the user decides, a poll is authorization_pending (400, no-store)")
    func pending() async throws {
        try await withSignIn { fixture in
            let (deviceCode, _) = try await fixture.startDevice()
            let response = try await fixture.poll(deviceCode)
            #expect(response.status == .badRequest)
            #expect(response.error == "authorization_pending")
            #expect(response.headers[.cacheControl] == "no-store")
        }
    }

    @Test("a poll sooner than the interval is slow_down and adds 5 s to the interval; waiting that long is fine")
    func slowDown() async throws {
        try await withSignIn { fixture in
            let (deviceCode, _) = try await fixture.startDevice()
            #expect(try await fixture.poll(deviceCode).error == "authorization_pending")
            fixture.clock.advance(by: 4)
            #expect(try await fixture.poll(deviceCode).error == "slow_down")
            #expect(try await fixture.deviceRecord(deviceCode)?.interval == 10)
            fixture.clock.advance(by: 9)
            #expect(try await fixture.poll(deviceCode).error == "slow_down")
            #expect(try await fixture.deviceRecord(deviceCode)?.interval == 15)
            fixture.clock.advance(by: 15)
            #expect(try await fixture.poll(deviceCode).error == "authorization_pending")
        }
    }

    @Test("after Allow, one poll gets the tokens (refresh token included); the next is invalid_grant")
    func approvedOnce() async throws {
        try await withSignIn { fixture in
            let (deviceCode, _) = try await fixture.startDevice()
            try await decide(
                fixture, deviceCode,
                .approve(subject: fixture.user.id, authTime: fixture.clock.now.addingTimeInterval(-3)))
            let tokens = try await fixture.poll(deviceCode)
            #expect(tokens.status == .ok)
            #expect(tokens["token_type"] == "Bearer")
            #expect(tokens["scope"] == "openid profile offline_access")
            #expect(tokens["refresh_token"] != nil)
            let validator = IDTokenValidator(
                issuer: fixture.issuer, clientID: "limen-cli",
                keys: JWKSCache(
                    jwksURI: try #require(URL(string: fixture.issuer + "/jwks")),
                    transport: RouterTransport(client: fixture.client), now: { fixture.clock.now }),
                now: { fixture.clock.now })
            let claims = try await validator.validate(
                try #require(tokens["id_token"]), nonce: nil, accessToken: tokens["access_token"])
            #expect(claims.subject == fixture.user.id)
            #expect(try await fixture.deviceRecord(deviceCode)?.status == .consumed)

            fixture.clock.advance(by: 5)
            let again = try await fixture.poll(deviceCode)
            #expect(again.status == .badRequest)
            #expect(again.error == "invalid_grant")
        }
    }

    @Test("the device grant's refresh token rotates like any other")
    func refreshAfterDeviceGrant() async throws {
        try await withSignIn { fixture in
            let (deviceCode, _) = try await fixture.startDevice()
            try await decide(fixture, deviceCode, .approve(subject: fixture.user.id, authTime: fixture.clock.now))
            let refreshToken = try #require(try await fixture.poll(deviceCode)["refresh_token"])
            let refreshed = try await fixture.postForm(
                "/token",
                [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "limen-cli")])
            #expect(refreshed.status == .ok)
            #expect(refreshed["refresh_token"] != nil && refreshed["refresh_token"] != refreshToken)
        }
    }

    @Test("a device grant without offline_access gets an access token but no refresh token (no session to end with)")
    func noRefreshTokenWithoutOfflineAccess() async throws {
        try await withSignIn { fixture in
            let (deviceCode, _) = try await fixture.startDevice(scope: "openid profile")
            try await decide(fixture, deviceCode, .approve(subject: fixture.user.id, authTime: fixture.clock.now))
            let tokens = try await fixture.poll(deviceCode)
            #expect(tokens.status == .ok)
            #expect(tokens["access_token"] != nil)
            #expect(tokens["refresh_token"] == nil)
        }
    }

    @Test("an approved code polled too soon stays unspent: slow_down, then the tokens")
    func approvedButTooSoon() async throws {
        try await withSignIn { fixture in
            let (deviceCode, _) = try await fixture.startDevice()
            #expect(try await fixture.poll(deviceCode).error == "authorization_pending")
            try await decide(fixture, deviceCode, .approve(subject: fixture.user.id, authTime: fixture.clock.now))
            fixture.clock.advance(by: 1)
            #expect(try await fixture.poll(deviceCode).error == "slow_down")
            #expect(try await fixture.deviceRecord(deviceCode)?.status == .approved)
            fixture.clock.advance(by: 10)
            #expect(try await fixture.poll(deviceCode).status == .ok)
        }
    }

    @Test("after Deny, polls are access_denied")
    func denied() async throws {
        try await withSignIn { fixture in
            let (deviceCode, _) = try await fixture.startDevice()
            try await decide(fixture, deviceCode, .deny)
            let response = try await fixture.poll(deviceCode)
            #expect(response.status == .badRequest)
            #expect(response.error == "access_denied")
        }
    }

    @Test("after 600 s the device code is expired_token, even if it had been allowed")
    func expired() async throws {
        try await withSignIn { fixture in
            let (deviceCode, _) = try await fixture.startDevice()
            try await decide(fixture, deviceCode, .approve(subject: fixture.user.id, authTime: fixture.clock.now))
            fixture.clock.advance(by: 600)
            let response = try await fixture.poll(deviceCode)
            #expect(response.status == .badRequest)
            #expect(response.error == "expired_token")
        }
    }

    @Test("an unknown device code, or one issued to another client, is invalid_grant")
    func wrongCodeOrClient() async throws {
        try await withSignIn { fixture in
            try await fixture.provider.store.insertClientIfAbsent(
                ClientRecord(
                    id: "other-cli", name: "Other CLI", kind: .public, redirectURIs: [],
                    grantTypes: [.deviceCode], createdAt: fixture.clock.now))
            let (deviceCode, _) = try await fixture.startDevice()
            try await decide(fixture, deviceCode, .approve(subject: fixture.user.id, authTime: fixture.clock.now))
            #expect(try await fixture.poll(deviceCode, clientID: "other-cli").error == "invalid_grant")
            #expect(try await fixture.poll(RandomIdentifier.make()).error == "invalid_grant")
            #expect(try await fixture.deviceRecord(deviceCode)?.status == .approved)
        }
    }

    @Test("a client not registered for the device code grant is unauthorized_client at /token")
    func clientWithoutGrant() async throws {
        try await withSignIn { fixture in
            try await fixture.provider.store.insertClientIfAbsent(
                ClientRecord(
                    id: "browser-app", name: "Browser App", kind: .public, redirectURIs: ["https://b.example/cb"],
                    createdAt: fixture.clock.now))
            let response = try await fixture.poll(RandomIdentifier.make(), clientID: "browser-app")
            #expect(response.error == "unauthorized_client")
        }
    }

    @Test("a poll without device_code is invalid_request")
    func missingDeviceCode() async throws {
        try await withSignIn { fixture in
            let response = try await fixture.postForm(
                "/token", [("grant_type", GrantType.deviceCode.rawValue), ("client_id", "limen-cli")])
            #expect(response.error == "invalid_request")
        }
    }

    @Test("two polls racing on one approved code: the store's compare-and-swap lets one of them spend it")
    func compareAndSwap() async throws {
        try await withSignIn { fixture in
            let (deviceCode, _) = try await fixture.startDevice()
            try await decide(fixture, deviceCode, .approve(subject: fixture.user.id, authTime: fixture.clock.now))
            let read = try #require(try await fixture.deviceRecord(deviceCode))
            let (next, tooSoon) = DeviceCodeGrant.poll(read, at: fixture.clock.now)
            #expect(!tooSoon && next.status == .consumed)
            #expect(try await fixture.provider.store.recordDevicePoll(replacing: read, with: next))
            #expect(try await !fixture.provider.store.recordDevicePoll(replacing: read, with: next))
        }
    }
}
