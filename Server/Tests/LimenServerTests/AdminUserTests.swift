import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Admin API: users")
struct AdminUserTests {
    static let password = "correct horse battery"

    @Test("creating a user stores a working password and never echoes it or its hash")
    func create() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let created = try await fixture.admin(
                .post, "/admin/users", token: token,
                json: #"{"email": " Grace@Example.com", "password": "\#(Self.password)", "name": "Grace"}"#)
            #expect(created.status == .created)
            #expect(created["email"] == "grace@example.com")
            #expect(created.json["has_password"] == .bool(true))
            #expect(created.json["email_verified"] == .bool(false))
            #expect(!created.text.contains(Self.password))
            #expect(!created.text.contains("scrypt") && !created.text.contains("password_hash"))
            let id = try #require(created["id"])
            let signedIn = try await fixture.provider.passwordSignIn.signIn(
                email: "grace@example.com", password: Self.password, from: RequestOrigin(ip: "192.0.2.1"))
            #expect(signedIn.id == id)

            let read = try await fixture.admin(.get, "/admin/users/\(id)", token: token)
            #expect(read.status == .ok)
            #expect(read["name"] == "Grace")
            #expect(!read.text.contains("scrypt"))
        }
    }

    @Test("an email that is taken is refused with 409, a weak password or bad email with 400")
    func refusals() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let taken = try await fixture.admin(
                .post, "/admin/users", token: token,
                json: #"{"email": "ada@example.com", "password": "\#(Self.password)"}"#)
            #expect(taken.status == .conflict)
            #expect(taken.error == "email_taken")
            let weak = try await fixture.admin(
                .post, "/admin/users", token: token, json: #"{"email": "bob@example.com", "password": "short"}"#)
            #expect(weak.status == .badRequest)
            #expect(weak.error == "weak_password")
            let email = try await fixture.admin(
                .post, "/admin/users", token: token, json: #"{"email": "bob", "password": "\#(Self.password)"}"#)
            #expect(email.status == .badRequest)
            #expect(email.error == "invalid_email")
            let missing = try await fixture.admin(.post, "/admin/users", token: token, json: #"{"email": "b@e.com"}"#)
            #expect(missing.status == .badRequest)
            #expect(missing["error_description"] == "password is required")
            let malformed = try await fixture.admin(.post, "/admin/users", token: token, json: "{\"email\":")
            #expect(malformed.status == .badRequest)
            #expect(try await fixture.provider.store.users().count == 1)
        }
    }

    @Test("a 60,000-character name is refused with 400 field_too_long on create and on change; nothing is stored")
    func nameTooLong() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let name = String(repeating: "n", count: 60_000)
            let created = try await fixture.admin(
                .post, "/admin/users", token: token,
                json: #"{"email": "grace@example.com", "password": "\#(Self.password)", "name": "\#(name)"}"#)
            #expect(created.status == .badRequest)
            #expect(created.error == "field_too_long")
            #expect(created["error_description"] == "Use at most 256 characters for your name.")
            let changed = try await fixture.admin(
                .patch, "/admin/users/\(TokenFixture.user.id)", token: token, json: #"{"name": "\#(name)"}"#)
            #expect(changed.status == .badRequest)
            #expect(changed.error == "field_too_long")
            #expect(try await fixture.provider.store.users().map(\.name) == [TokenFixture.user.name])
            let longest = String(repeating: "n", count: Accounts.maximumNameLength)
            let accepted = try await fixture.admin(
                .patch, "/admin/users/\(TokenFixture.user.id)", token: token, json: #"{"name": "\#(longest)"}"#)
            #expect(accepted.status == .ok)
        }
    }

    @Test("users are listed in pages of `limit`, each page continuing after the last subject of the previous one")
    func paging() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            for id in ["u-c", "u-a", "u-b"] {
                try await fixture.provider.store.insertUserIfAbsent(
                    UserRecord(id: id, email: "\(id)@example.com", createdAt: fixture.clock.now))
            }
            let first = try await fixture.admin(.get, "/admin/users?limit=2", token: token)
            #expect(first.status == .ok)
            #expect(first.objects(in: "users").compactMap { $0["id"]?.stringValue } == ["u-a", "u-b"])
            #expect(first["next_after"] == "u-b")
            let second = try await fixture.admin(.get, "/admin/users?limit=2&after=u-b", token: token)
            #expect(second.objects(in: "users").compactMap { $0["id"]?.stringValue } == ["u-c", "user-1"])
            #expect(second.json["next_after"] == nil, "no page after the last")
            let all = try await fixture.admin(.get, "/admin/users", token: token)
            #expect(all.objects(in: "users").count == 4)
            #expect(!all.text.contains("password_hash"))
        }
    }

    @Test("a limit that is not 1 to 500 is refused with 400", arguments: ["0", "-1", "501", "ten", ""])
    func badLimit(_ limit: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let response = try await fixture.admin(.get, "/admin/users?limit=\(limit)", token: token)
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_request")
        }
    }

    @Test("an unknown user ID is 404 for reading and deleting")
    func unknownUser() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            #expect(try await fixture.admin(.get, "/admin/users/nobody", token: token).status == .notFound)
            let deleted = try await fixture.admin(.delete, "/admin/users/nobody", token: token)
            #expect(deleted.status == .notFound)
            #expect(deleted.error == "not_found")
        }
    }

    @Test("deleting a user ends their refresh and access tokens", arguments: TokenBackend.allCases)
    func deleteRevokesTokens(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            let tokens = try await fixture.signIn()
            let refreshToken = try #require(tokens["refresh_token"])
            let accessToken = try #require(tokens["access_token"])
            #expect(try await fixture.userInfo(accessToken).status == .ok)

            let deleted = try await fixture.admin(.delete, "/admin/users/\(TokenFixture.user.id)", token: token)
            #expect(deleted.status == .noContent)
            #expect(try await fixture.provider.store.user(id: TokenFixture.user.id) == nil)
            let refreshed = try await fixture.refresh(refreshToken)
            #expect(refreshed.status == .badRequest)
            #expect(refreshed.error == "invalid_grant")
            #expect(try await fixture.userInfo(accessToken).status == .unauthorized)
            #expect(
                try await fixture.admin(.get, "/admin/users/\(TokenFixture.user.id)", token: token).status == .notFound)
        }
    }
}
