import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Absolute grant lifetime (RFC 9700 §4.14.2)")
struct GrantLifetimeTests {
    /// Two hours: short enough that a 30-day refresh token would outlive it.
    static let grantMaxLifetime: TimeInterval = 7200

    private static func run(
        on backend: TokenBackend,
        _ body: @Sendable (TokenFixture) async throws -> Void
    ) async throws {
        try await TokenFixture.run(
            on: backend,
            configure: { $0.tokenLifetimes.grantMaxLifetime = grantMaxLifetime },
            body)
    }

    /// The grant the refresh token `token` belongs to.
    private static func grant(of token: String, in fixture: TokenFixture) async throws -> GrantRecord {
        let record = try #require(try await fixture.provider.store.refreshToken(hash: RandomIdentifier.hash(token)))
        return try #require(try await fixture.provider.store.grant(id: record.grantID))
    }

    @Test("a refresh at the grant's maximum lifetime is invalid_grant", arguments: TokenBackend.allCases)
    func refreshPastDeadlineRefused(_ backend: TokenBackend) async throws {
        try await Self.run(on: backend) { fixture in
            let first = try #require(try await fixture.signIn()["refresh_token"])
            fixture.clock.advance(by: 3600)
            let refreshed = try await fixture.refresh(first)
            #expect(refreshed.status == .ok)
            let second = try #require(refreshed["refresh_token"])
            fixture.clock.advance(by: Self.grantMaxLifetime - 3600)

            let refused = try await fixture.refresh(second)
            #expect(refused.status == .badRequest)
            #expect(refused.error == "invalid_grant")
        }
    }

    @Test(
        "a refresh near the deadline issues tokens that end at it, and the grant is not extended beyond it",
        arguments: TokenBackend.allCases)
    func tokensEndAtDeadline(_ backend: TokenBackend) async throws {
        try await Self.run(on: backend) { fixture in
            let first = try #require(try await fixture.signIn()["refresh_token"])
            let deadline = try await Self.grant(of: first, in: fixture).createdAt
                .addingTimeInterval(Self.grantMaxLifetime)
            fixture.clock.advance(by: Self.grantMaxLifetime - 100)

            let refreshed = try await fixture.refresh(first)
            #expect(refreshed.status == .ok)
            #expect(refreshed.json["expires_in"] == .number(100))
            let second = try #require(refreshed["refresh_token"])
            let record = try await fixture.provider.store.refreshToken(hash: RandomIdentifier.hash(second))
            #expect(record?.expiresAt == deadline)
            #expect(try await Self.grant(of: second, in: fixture).expiresAt == deadline)
        }
    }

    @Test("a grant's first refresh token already ends by its deadline; a short access token is not shortened")
    func firstRefreshTokenEndsByDeadline() async throws {
        try await Self.run(on: .sqlite) { fixture in
            let signedIn = try await fixture.signIn()
            #expect(signedIn.json["expires_in"] == .number(600))
            let token = try #require(signedIn["refresh_token"])
            let grant = try await Self.grant(of: token, in: fixture)
            let record = try await fixture.provider.store.refreshToken(hash: RandomIdentifier.hash(token))
            #expect(record?.expiresAt == grant.createdAt.addingTimeInterval(Self.grantMaxLifetime))
        }
    }
}
