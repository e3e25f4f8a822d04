import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Sign in with Apple: the AppleSignInKit contract against a stand-in Apple")
struct AppleSignInTests {
    @Test("a valid native sign-in answers the seed's JSON: success, user, accessToken, refreshToken, expiresIn")
    func nativeSignIn() async throws {
        try await AppleFixture.run { fixture in
            let token = try await fixture.identityToken(extra: [
                "email": .string("Grace@Example.com"), "email_verified": .bool(true), "real_user_status": .number(2),
            ])
            let response = try await fixture.signIn(token, fullName: "Grace Hopper", email: "grace@example.com")
            #expect(response.status == .ok, "\(String(decoding: response.body, as: UTF8.self))")
            #expect(Set(response.json.keys) == ["success", "user", "accessToken", "refreshToken", "expiresIn"])
            #expect(response.json["success"] == .bool(true))
            #expect(
                response.json["expiresIn"]?.numberValue
                    == fixture.tokens.provider.configuration.tokenLifetimes.accessToken)
            #expect(response.headers[.cacheControl] == "no-store")
            let user = response.user
            #expect(Set(user.keys) == ["id", "email", "displayName", "createdAt"])
            #expect(user["email"] == .string("grace@example.com"))
            #expect(user["displayName"] == .string("Grace Hopper"))
            let createdAt = try #require(user["createdAt"]?.stringValue)
            #expect(abs(try Date(createdAt, strategy: .iso8601).timeIntervalSince(fixture.now)) < 1)
            let id = try #require(user["id"]?.stringValue)
            let identities = try await fixture.tokens.provider.store.identities(userID: id)
            // The Apple identity, and the address Apple verified as the account's own sign-in.
            #expect(identities.filter { $0.kind == AppleSignIn.identityKind }.map(\.subject) == ["001234.abcdef"])
            #expect(Set(identities.map(\.kind)) == [AppleSignIn.identityKind, "email"], "\(identities)")
            let accessToken = try #require(response["accessToken"])
            let claims = try UnverifiedJWT(accessToken)
            #expect(claims.subject == id && claims[claim: "client_id"]?.stringValue == AppleSignIn.clientID)

            let again = try await fixture.signIn(try await fixture.identityToken())
            #expect(again.user["id"] == .string(id))
        }
    }

    @Test("an identity token whose nonce is not the SHA-256 of the nonce sent, or has none, is refused")
    func nonceMismatch() async throws {
        try await AppleFixture.run { fixture in
            let token = try await fixture.identityToken(rawNonce: "the-app's-nonce")
            let mismatch = try await fixture.signIn(token, rawNonce: "another-nonce")
            #expect(mismatch.status == .unauthorized)
            #expect(mismatch.error == "invalid_identity_token")
            let unhashed = try await fixture.identityToken(extra: ["nonce": .string(AppleFixture.rawNonce)])
            #expect(try await fixture.signIn(unhashed).status == .unauthorized)
            let missing = try await fixture.identityToken(extra: ["nonce": .null])
            #expect(try await fixture.signIn(missing).status == .unauthorized)
            #expect(try await fixture.tokens.provider.store.users().count == 1)  // the fixture's own user only
        }
    }

    /// How a test spoils an identity token.
    enum Spoiled: String, CaseIterable, Sendable {
        case wrongAudience, badSignature, expired, wrongAlgorithm, otherIssuer, notAJWT
    }

    @Test(
        "a wrong audience, bad signature, expired token, ES256 or another issuer is refused, every one alike",
        arguments: Spoiled.allCases)
    func refusedAlike(spoiled: Spoiled) async throws {
        try await AppleFixture.run { fixture in
            let token: String
            switch spoiled {
            case .wrongAudience: token = try await fixture.identityToken(extra: ["aud": .string("com.evil.app")])
            case .badSignature:
                let good = try await fixture.identityToken()
                let other = try await fixture.identityToken(subject: "someone-else")
                let (parts, otherParts) = (good.split(separator: "."), other.split(separator: "."))
                token = "\(parts[0]).\(parts[1]).\(otherParts[2])"
            case .expired:
                let past = fixture.now.addingTimeInterval(-3600).timeIntervalSince1970.rounded(.down)
                token = try await fixture.identityToken(extra: ["iat": .number(past), "exp": .number(past + 300)])
            case .wrongAlgorithm: token = try await fixture.identityToken(algorithm: .es256)
            case .otherIssuer:
                token = try await fixture.identityToken(extra: ["iss": .string("https://appleid.apple.com")])
            case .notAJWT: token = "not.a.jwt"
            }
            let response = try await fixture.signIn(token)
            #expect(response.status == .unauthorized)
            #expect(
                response.json == [
                    "success": .bool(false), "error": .string("invalid_identity_token"),
                    "message": .string("the Apple identity token is not valid; sign in with Apple again"),
                ])
        }
    }

    @Test("the name the app passes is kept from the first sign-in only")
    func nameFromFirstSignInOnly() async throws {
        try await AppleFixture.run { fixture in
            let first = try await fixture.signIn(try await fixture.identityToken(), fullName: "  Ada Lovelace ")
            #expect(first.user["displayName"] == .string("Ada Lovelace"))
            let renamed = try await fixture.signIn(try await fixture.identityToken(), fullName: "Mallory")
            #expect(renamed.user["displayName"] == .string("Ada Lovelace"))
            let without = try await fixture.signIn(try await fixture.identityToken())
            #expect(without.user["displayName"] == .string("Ada Lovelace"))
            let accessToken = try #require(without["accessToken"])
            #expect(try await fixture.me(accessToken).user["displayName"] == .string("Ada Lovelace"))

            let nameless = try await fixture.signIn(try await fixture.identityToken(subject: "another.sub"))
            #expect(nameless.user["displayName"] == .null && nameless.user["email"] == .null)
            let late = try await fixture.signIn(
                try await fixture.identityToken(subject: "another.sub"), fullName: "Late")
            #expect(late.user["displayName"] == .null)
        }
    }

    @Test("a private relay address (claims as strings, as Apple sends them) is accepted and marked")
    func privateRelayEmail() async throws {
        try await AppleFixture.run { fixture in
            let relay = "x7k2p9q4rm@privaterelay.appleid.com"
            let extra: [String: JSONValue] = [
                "email": .string(relay), "email_verified": .string("true"), "is_private_email": .string("true"),
                "real_user_status": .number(1),
            ]
            let response = try await fixture.signIn(try await fixture.identityToken(extra: extra))
            #expect(response.status == .ok)
            #expect(response.user["email"] == .string(relay))

            let apple = try #require(fixture.tokens.provider.configuration.apple)
            let verifier = AppleIdentityVerifier(
                apple: apple, transport: URLSessionTransport(timeout: 10),
                now: { [clock = fixture.tokens.clock] in clock.now })
            let identity = try await verifier.verify(
                try await fixture.identityToken(extra: extra), rawNonce: AppleFixture.rawNonce, fullName: nil)
            #expect(identity.isPrivateEmail && identity.realUserStatus == 1)
            #expect(identity.external.email == relay && identity.external.emailVerified)
            let byDomain = try await verifier.verify(
                try await fixture.identityToken(extra: ["email": .string(relay), "email_verified": .bool(true)]),
                rawNonce: AppleFixture.rawNonce, fullName: nil)
            #expect(byDomain.isPrivateEmail && byDomain.realUserStatus == nil)
            let plain = try await verifier.verify(
                try await fixture.identityToken(extra: [
                    "email": .string("a@example.com"), "is_private_email": .bool(false),
                ]),
                rawNonce: AppleFixture.rawNonce, fullName: nil)
            #expect(!plain.isPrivateEmail)
        }
    }

    @Test("an address Apple did not verify is not stored")
    func unverifiedEmail() async throws {
        try await AppleFixture.run { fixture in
            let token = try await fixture.identityToken(extra: [
                "email": .string("ada@example.com"), "email_verified": .string("false"),
            ])
            let response = try await fixture.signIn(token, email: "ada@example.com")
            #expect(response.status == .ok)
            #expect(response.user["email"] == .null)
            #expect(response.user["id"] != .string(TokenFixture.user.id))
        }
    }
}
