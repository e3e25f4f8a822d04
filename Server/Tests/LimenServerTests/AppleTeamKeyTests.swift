import Crypto
import Foundation
import HTTPTypes
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

extension AppleFixture {
    /// The code the stand-in Apple redeems in these tests.
    static let authorizationCode = "c0de.from.apple"

    /// A native sign-in with a token saying `extra` (a private relay address, a real user, by default); its user's ID.
    func appleSignIn(extra: [String: JSONValue]? = nil) async throws -> (id: String, accessToken: String) {
        let claims =
            extra ?? [
                "email": .string("x1y2@privaterelay.appleid.com"), "email_verified": .bool(true),
                "is_private_email": .bool(true), "real_user_status": .number(2),
            ]
        let response = try await signIn(try await identityToken(extra: claims))
        #expect(response.status == .ok, "\(String(decoding: response.body, as: UTF8.self))")
        return (try #require(response.user["id"]?.stringValue), try #require(response["accessToken"]))
    }

    /// The refresh token the stand-in Apple issued (the only one).
    func issuedRefreshToken() throws -> String {
        let issued = apple.appleTeam.current.issued
        #expect(issued.count == 1 && issued.first?.clientID == Self.bundleID)
        return try #require(issued.first?.refreshToken)
    }
}

@Suite("Sign in with Apple with the team key: codes redeemed, Apple's refresh token sealed, revoked on deletion")
struct AppleTeamKeyTests {
    @Test(
        "the native sign-in redeems the code and keeps Apple's refresh token only sealed, with Apple's facts",
        arguments: TokenBackend.allCases)
    func redeemsAndSeals(_ backend: TokenBackend) async throws {
        try await AppleFixture.run(on: backend, teamKey: true) { fixture in
            fixture.apple.appleTeam.accept(code: AppleFixture.authorizationCode)
            let (id, _) = try await fixture.appleSignIn()
            let refreshToken = try fixture.issuedRefreshToken()
            let store = fixture.tokens.provider.store
            let record = try #require(try await store.appleAccount(userID: id))
            #expect(record.subject == "001234.abcdef" && record.isPrivateEmail && record.realUserStatus == 2)
            #expect(record.refreshTokenClientID == AppleFixture.bundleID)
            let sealed = try #require(record.sealedRefreshToken)
            let seal = AppleRefreshTokenSeal(keys: fixture.tokens.provider.derivedKeys)
            #expect(seal.open(sealed, userID: id) == refreshToken)
            // No column of the row holds the token in clear.
            let sqlStore = try #require(store as? any SQLStore)
            let rows = try await sqlStore.execute("SELECT * FROM apple_accounts")
            #expect(rows.count == 1)
            for column in AppleAccountMigration.appleAccounts.columns.map(\.name) {
                let value = try rows[0].sqlValue(column)
                #expect(!String(describing: value).contains(refreshToken))
                if case .blob(let bytes)? = value { #expect(bytes.range(of: Data(refreshToken.utf8)) == nil) }
            }
            // A later sign-in without a code Apple redeems keeps the token and updates the facts.
            _ = try await fixture.appleSignIn(extra: ["real_user_status": .number(1)])
            let later = try #require(try await store.appleAccount(userID: id))
            #expect(later.sealedRefreshToken == sealed && later.realUserStatus == 1 && !later.isPrivateEmail)
        }
    }

    @Test("a code Apple refuses leaves the sign-in successful and keeps no token; the facts are kept")
    func refusedRedemption() async throws {
        try await AppleFixture.run(teamKey: true) { fixture in
            let (id, _) = try await fixture.appleSignIn()
            #expect(fixture.apple.appleTeam.current.tokenCalls == 1)
            #expect(fixture.apple.appleTeam.current.issued.isEmpty)
            let record = try #require(try await fixture.tokens.provider.store.appleAccount(userID: id))
            #expect(record.sealedRefreshToken == nil && record.refreshTokenClientID == nil)
            #expect(record.isPrivateEmail && record.realUserStatus == 2)
        }
    }

    @Test("without the team key nothing is redeemed; Apple's facts are still kept")
    func noTeamKey() async throws {
        try await AppleFixture.run { fixture in
            fixture.apple.appleTeam.accept(code: AppleFixture.authorizationCode)
            let (id, _) = try await fixture.appleSignIn()
            #expect(fixture.apple.appleTeam.current.tokenCalls == 0)
            let record = try #require(try await fixture.tokens.provider.store.appleAccount(userID: id))
            #expect(record.sealedRefreshToken == nil && record.isPrivateEmail && record.realUserStatus == 2)
        }
    }

    @Test(
        "DELETE /v1/me revokes Apple's refresh token at Apple before the account goes", arguments: TokenBackend.allCases
    )
    func deleteMeRevokes(_ backend: TokenBackend) async throws {
        try await AppleFixture.run(on: backend, teamKey: true) { fixture in
            fixture.apple.appleTeam.accept(code: AppleFixture.authorizationCode)
            let (id, accessToken) = try await fixture.appleSignIn()
            let refreshToken = try fixture.issuedRefreshToken()
            let deleted = try await fixture.tokens.admin(.delete, "/v1/me", token: accessToken)
            #expect(deleted.status == .noContent)
            #expect(
                fixture.apple.appleTeam.current.revocations == [
                    [
                        "client_id": AppleFixture.bundleID, "token": refreshToken,
                        "token_type_hint": "refresh_token",
                    ]
                ])
            #expect(try await fixture.tokens.provider.store.user(id: id) == nil)
            #expect(try await fixture.tokens.provider.store.appleAccount(userID: id) == nil)
        }
    }

    @Test("the admin API's deletion revokes Apple's refresh token; Apple refusing it does not stop the deletion")
    func adminDeletionRevokes() async throws {
        try await AppleFixture.run(teamKey: true) { fixture in
            let adminToken = try await fixture.tokens.installAdminToken()
            fixture.apple.appleTeam.accept(code: AppleFixture.authorizationCode)
            let (id, _) = try await fixture.appleSignIn()
            let refreshToken = try fixture.issuedRefreshToken()
            let deleted = try await fixture.tokens.admin(.delete, "/admin/users/\(id)", token: adminToken)
            #expect(deleted.status == .noContent)
            #expect(fixture.apple.appleTeam.current.revocations.map { $0["token"] } == [refreshToken])

            // Apple refuses the next revocation (it no longer trusts the team key): the account goes all the same.
            fixture.apple.appleTeam.accept(code: AppleFixture.authorizationCode)
            let (other, _) = try await fixture.appleSignIn()
            fixture.apple.appleTeam.distrustTeamKey()
            let again = try await fixture.tokens.admin(.delete, "/admin/users/\(other)", token: adminToken)
            #expect(again.status == .noContent)
            #expect(fixture.apple.appleTeam.current.revocations.count == 1)
            #expect(try await fixture.tokens.provider.store.user(id: other) == nil)
        }
    }

    @Test("after Apple's account-delete notification, deleting the account asks Apple to revoke nothing")
    func accountDeleteNotification() async throws {
        try await AppleFixture.run(teamKey: true) { fixture in
            let adminToken = try await fixture.tokens.installAdminToken()
            fixture.apple.appleTeam.accept(code: AppleFixture.authorizationCode)
            let (id, _) = try await fixture.appleSignIn()
            _ = try fixture.issuedRefreshToken()
            let notified = try await fixture.notify(try await fixture.notification("account-delete"))
            #expect(notified.status == .ok)
            let record = try #require(try await fixture.tokens.provider.store.appleAccount(userID: id))
            #expect(record.sealedRefreshToken == nil && record.refreshTokenClientID == nil && record.isPrivateEmail)
            let deleted = try await fixture.tokens.admin(.delete, "/admin/users/\(id)", token: adminToken)
            #expect(deleted.status == .noContent)
            #expect(fixture.apple.appleTeam.current.revocations.isEmpty)
        }
    }

    @Test("the apple flow redeems its optional authorization_code")
    func flowRedeems() async throws {
        try await AppleFixture.runWithFlows(teamKey: true) { fixture in
            fixture.apple.appleTeam.accept(code: "flow.c0de")
            let success = try await fixture.signInThroughFlow(
                try await fixture.identityToken(extra: ["real_user_status": .number(0)]), authorizationCode: "flow.c0de"
            )
            let id = try TokenFixture.subject(of: try await fixture.redeem(success))
            let refreshToken = try fixture.issuedRefreshToken()
            let record = try #require(try await fixture.tokens.provider.store.appleAccount(userID: id))
            #expect(record.realUserStatus == 0 && !record.isPrivateEmail)
            let seal = AppleRefreshTokenSeal(keys: fixture.tokens.provider.derivedKeys)
            #expect(seal.open(try #require(record.sealedRefreshToken), userID: id) == refreshToken)
        }
    }

    @Test("finding 12: a native sign-in whose code Apple gave to another Apple ID is refused; nobody is made")
    func nativeCodeOfAnotherAppleID() async throws {
        try await AppleFixture.run(teamKey: true) { fixture in
            fixture.apple.appleTeam.accept(code: AppleFixture.authorizationCode, subject: "009999.someone-else")
            let usersBefore = try await fixture.tokens.provider.store.users().count
            let refused = try await fixture.signIn(try await fixture.identityToken())
            #expect(refused.status == .unauthorized)
            #expect(refused.error == "invalid_identity_token")
            #expect(refused["accessToken"] == nil)
            #expect(try await fixture.tokens.provider.store.users().count == usersBefore)
            #expect(fixture.apple.appleTeam.current.tokenCalls == 1)
        }
    }

    @Test("finding 12: the apple flow refuses an authorization_code of another Apple ID on the identity token")
    func flowCodeOfAnotherAppleID() async throws {
        try await AppleFixture.runWithFlows(teamKey: true) { fixture in
            fixture.apple.appleTeam.accept(code: "flow.c0de", subject: "009999.someone-else")
            let usersBefore = try await fixture.tokens.provider.store.users().count
            let answer = try await fixture.signInThroughFlow(
                try await fixture.identityToken(), authorizationCode: "flow.c0de")
            #expect(answer.detailCodes == ["identity_token": ["invalid_identity_token"]])
            #expect(try await fixture.tokens.provider.store.users().count == usersBefore)
        }
    }

    /// How a test spoils a client secret.
    enum Forged: String, CaseIterable, Sendable {
        case otherKey, otherKeyID, otherTeam, otherBundle, otherAudience
    }

    @Test(
        "the client secret is the ES256 JWT Apple expects; one forged or for another party is refused",
        arguments: Forged.allCases)
    func clientSecret(_ forged: Forged) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let team = StandInAppleTeam()
        let teamKey = try team.makeTeamKey(in: directory.path)
        let privateKey = try #require(AppleClientSecret.privateKey(of: teamKey))
        let (bundle, audience) = (AppleFixture.bundleID, "https://appleid.apple.com")
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let secret = try await AppleClientSecret(teamKey: teamKey, privateKey: privateKey)
            .make(clientID: bundle, audience: audience, at: now)
        #expect(team.check(secret: secret, clientID: bundle, audience: audience) == nil)

        var key = teamKey
        var signer = privateKey
        var (clientID, made) = (bundle, audience)
        switch forged {
        case .otherKey: signer = P256.Signing.PrivateKey()
        case .otherKeyID: key.keyID = "OTHERKEY00"
        case .otherTeam: key.teamID = "OTHERTEAM0"
        case .otherBundle: clientID = "com.evil.app"
        case .otherAudience: made = "https://evil.example"
        }
        let spoiled = try await AppleClientSecret(teamKey: key, privateKey: signer)
            .make(clientID: clientID, audience: made, at: now)
        let expected = [
            "otherKey": "signature", "otherKeyID": "kid", "otherTeam": "iss", "otherBundle": "sub",
            "otherAudience": "aud",
        ][forged.rawValue]
        #expect(team.check(secret: spoiled, clientID: bundle, audience: audience) == expected)
    }
}
