import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Admin API: changing a user")
struct AdminUserChangeTests {
    static let password = "correct horse battery"

    @Test("PATCH sets the name and verified flag, removes the name with null, and leaves the tokens working")
    func profile() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let refreshToken = try #require(try await fixture.signIn()["refresh_token"])
            let path = "/admin/users/\(TokenFixture.user.id)"
            let changed = try await fixture.admin(
                .patch, path, token: token, json: #"{"name": "  Ada L. ", "email_verified": false}"#)
            #expect(changed.status == .ok)
            #expect(changed["name"] == "Ada L.")
            #expect(changed.json["email_verified"] == .bool(false))
            #expect(changed.headers[.cacheControl] == "no-store")
            let stored = try #require(try await fixture.provider.store.user(id: TokenFixture.user.id))
            #expect(stored.name == "Ada L." && !stored.emailVerified && stored.email == TokenFixture.user.email)

            let unnamed = try await fixture.admin(.patch, path, token: token, json: #"{"name": null}"#)
            #expect(unnamed.json["name"] == nil)
            #expect(try await fixture.provider.store.user(id: TokenFixture.user.id)?.name == nil)
            #expect(try await fixture.refresh(refreshToken).status == .ok, "no password change, no sign-out")
        }
    }

    @Test(
        "a first password ends nothing; a new one signs in, the old one does not, and the user's tokens end",
        arguments: TokenBackend.allCases)
    func password(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            let tokens = try await fixture.signIn()
            let refreshToken = try #require(tokens["refresh_token"])
            let accessToken = try #require(tokens["access_token"])
            let path = "/admin/users/\(TokenFixture.user.id)"
            let first = try await fixture.admin(.patch, path, token: token, json: #"{"password": "\#(Self.password)"}"#)
            #expect(first.status == .ok)
            #expect(first.json["has_password"] == .bool(true))
            #expect(!first.text.contains(Self.password) && !first.text.contains("scrypt"))

            // The account had no password: setting one lets nobody in who was not, so the session lives on.
            let refreshed = try await fixture.refresh(refreshToken)
            #expect(refreshed.status == .ok)
            let accounts = fixture.provider.passwordSignIn
            #expect(
                try await accounts.signIn(
                    email: TokenFixture.user.email ?? "", password: Self.password, from: RequestOrigin(ip: "192.0.2.1")
                ).id
                    == "user-1")

            let second = try await fixture.admin(.patch, path, token: token, json: #"{"password": "another long one"}"#)
            #expect(second.status == .ok)
            #expect(try await fixture.refresh(try #require(refreshed["refresh_token"])).error == "invalid_grant")
            #expect(try await fixture.userInfo(try #require(refreshed["access_token"])).status == .unauthorized)
            #expect(try await fixture.userInfo(accessToken).status == .unauthorized)
            await #expect(throws: AccountError.invalidCredentials) {
                try await accounts.signIn(
                    email: TokenFixture.user.email ?? "", password: Self.password, from: RequestOrigin(ip: "192.0.2.1"))
            }
            #expect(
                try await accounts.signIn(
                    email: TokenFixture.user.email ?? "", password: "another long one",
                    from: RequestOrigin(ip: "192.0.2.1")
                ).id == "user-1")
        }
    }

    @Test("a weak password, an unknown member, a wrong type or malformed JSON is 400; an unknown user 404; no change")
    func refusals() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let path = "/admin/users/\(TokenFixture.user.id)"
            let refusals: [(String, String, String)] = [
                (#"{"password": "short"}"#, "weak_password", ""),
                (#"{"email": "new@example.com"}"#, "invalid_request", "email is not a member of this request"),
                (#"{"email_verified": "yes"}"#, "invalid_request", "email_verified must be of type Bool"),
                (#"{"name": "#, "invalid_request", "the body is not valid JSON"),
                ("[]", "invalid_request", "the body must be a JSON object"),
            ]
            for (json, error, description) in refusals {
                let refused = try await fixture.admin(.patch, path, token: token, json: json)
                #expect(refused.status == .badRequest, "\(json)")
                #expect(refused.error == error, "\(json)")
                if !description.isEmpty { #expect(refused["error_description"] == description, "\(json)") }
            }
            #expect(try await fixture.provider.store.user(id: TokenFixture.user.id) == TokenFixture.user)

            let unknown = try await fixture.admin(.patch, "/admin/users/nobody", token: token, json: "{}")
            #expect(unknown.status == .notFound)
            let anonymous = try await fixture.admin(.patch, path, token: nil, json: #"{"name": "Eve"}"#)
            #expect(anonymous.status == .unauthorized)
            #expect(try await fixture.provider.store.user(id: TokenFixture.user.id)?.name == TokenFixture.user.name)
        }
    }
}
