import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Admin API: security events")
struct AdminEventTests {
    static let password = "correct horse battery"
    static let newPassword = "another long one"
    static let webClient =
        #"{"client_id": "shop", "client_name": "Shop", "redirect_uris": ["https://shop.example/cb"]}"#

    /// The admin changes of one session: a user created, changed and deleted, a client registered, rebranded and
    /// removed; returns the user's subject and the client's secret.
    private static func makeChanges(_ fixture: TokenFixture, token: String) async throws -> (
        user: String, secret: String
    ) {
        let created = try await fixture.admin(
            .post, "/admin/users", token: token, json: #"{"email": "grace@example.com", "password": "\#(password)"}"#)
        let user = try #require(created["id"])
        fixture.clock.advance(by: 1)
        _ = try await fixture.admin(
            .patch, "/admin/users/\(user)", token: token,
            json: #"{"password": "\#(newPassword)", "email_verified": true}"#)
        fixture.clock.advance(by: 1)
        let client = try await fixture.admin(.post, "/admin/clients", token: token, json: webClient)
        let secret = try #require(client["client_secret"])
        _ = try await fixture.admin(
            .put, "/admin/clients/shop/branding", token: token, json: ##"{"accent_color": "#112233"}"##)
        fixture.clock.advance(by: 1)
        _ = try await fixture.admin(.delete, "/admin/clients/shop", token: token)
        fixture.clock.advance(by: 1)
        _ = try await fixture.admin(.delete, "/admin/users/\(user)", token: token)
        return (user, secret)
    }

    /// The `type`s of a page's events, in order.
    private static func types(_ page: RecordedResponse) -> [String] {
        page.objects(in: "events").compactMap { $0["type"]?.stringValue }
    }

    @Test("each admin change is an event with the admin token as actor, newest first", arguments: TokenBackend.allCases)
    func adminChangesRecorded(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            let (user, _) = try await Self.makeChanges(fixture, token: token)
            let page = try await fixture.admin(.get, "/admin/events", token: token)
            #expect(page.status == .ok)
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(
                Set(Self.types(page)) == [
                    "user.created", "admin.user_created", "user.password_changed", "user.verified",
                    "admin.user_updated", "admin.client_created", "admin.client_updated", "admin.client_deleted",
                    "user.deleted", "admin.user_deleted",
                ])
            #expect(Self.types(page).first == "user.deleted" || Self.types(page).first == "admin.user_deleted")
            #expect(Self.types(page).suffix(2).contains("user.created"))
            let events = page.objects(in: "events")
            #expect(
                events.allSatisfy {
                    $0["actor"]?.stringValue == "admin_token" || $0["type"]?.stringValue?.hasPrefix("user.") == true
                })
            let updated = try #require(events.first { $0["type"]?.stringValue == "admin.user_updated" })
            #expect(updated["user"]?.stringValue == user)
            #expect(updated["details"]?.objectValue?["fields"]?.stringValue == "email_verified,password")
            #expect(updated["request_id"]?.stringValue?.isEmpty == false)
            #expect(updated["time"]?.stringValue?.hasSuffix("Z") == true)
            let created = try #require(events.first { $0["type"]?.stringValue == "admin.client_created" })
            #expect(created["client"]?.stringValue == "shop")
            #expect(page.json["next"] == .null)
        }
    }

    @Test(
        "the filters pick events by type, user and client, and pages follow the next link to the end",
        arguments: TokenBackend.allCases)
    func filtersAndPages(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            let (user, _) = try await Self.makeChanges(fixture, token: token)
            let created = try await fixture.admin(.get, "/admin/events?type=user.created", token: token)
            #expect(Self.types(created) == ["user.created"])
            let byUser = try await fixture.admin(.get, "/admin/events?user=\(user)&limit=500", token: token)
            #expect(Self.types(byUser).count == 7)
            let byClient = try await fixture.admin(.get, "/admin/events?client=shop", token: token)
            #expect(
                Set(Self.types(byClient)) == ["admin.client_created", "admin.client_updated", "admin.client_deleted"])
            let start = Date(timeIntervalSince1970: fixture.clock.now.timeIntervalSince1970.rounded(.down))
            let since = try await fixture.admin(
                .get, "/admin/events?since=\(start.formatted(.iso8601))", token: token)
            #expect(Set(Self.types(since)) == ["user.deleted", "admin.user_deleted"])
            let until = try await fixture.admin(
                .get, "/admin/events?until=\(start.formatted(.iso8601))&type=admin.client_deleted", token: token)
            #expect(Self.types(until) == ["admin.client_deleted"])
            let none = try await fixture.admin(
                .get, "/admin/events?since=\(start.formatted(.iso8601))&type=admin.client_deleted", token: token)
            #expect(Self.types(none).isEmpty)

            let all = Self.types(try await fixture.admin(.get, "/admin/events", token: token))
            var paged: [String] = []
            var next: String? = "/admin/events?limit=3"
            var pages = 0
            while let path = next, pages < 10 {
                let page = try await fixture.admin(.get, path, token: token)
                #expect(page.status == .ok)
                paged += Self.types(page)
                next = page["next"]
                pages += 1
            }
            #expect(paged == all)
            #expect(pages == (all.count + 2) / 3)
        }
    }

    @Test("a missing or wrong admin token, a bad cursor, since, type or limit are refused")
    func refusals() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            #expect(try await fixture.admin(.get, "/admin/events", token: nil).status == .unauthorized)
            #expect(try await fixture.admin(.get, "/admin/events", token: "not-the-token").status == .unauthorized)
            for query in [
                "cursor=not-a-cursor", "cursor=" + Base64URL.encode(Array("12.bad id!".utf8)),
                "cursor=" + Base64URL.encode(Array("-1.abc".utf8)), "since=yesterday", "until=1700000000",
                "type=user.hacked", "limit=0", "limit=501", "limit=ten",
            ] {
                let refused = try await fixture.admin(.get, "/admin/events?\(query)", token: token)
                #expect(refused.status == .badRequest, "\(query)")
                #expect(refused.error == "invalid_request", "\(query)")
            }
        }
    }

    @Test("no stored event holds a password, a client secret or the admin token", arguments: TokenBackend.allCases)
    func noSecrets(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            let (_, secret) = try await Self.makeChanges(fixture, token: token)
            let events = try await fixture.provider.store.securityEvents(SecurityEventFilter(), limit: 1000)
            #expect(events.count >= 10)
            let stored = events.map { "\($0)" }.joined(separator: "\n")
            for value in [Self.password, Self.newPassword, secret, token, TokenFixture.webSecret] {
                #expect(!stored.contains(value))
            }
            let listed = try await fixture.admin(.get, "/admin/events?limit=500", token: token).text
            for value in [Self.password, Self.newPassword, secret, token] { #expect(!listed.contains(value)) }
        }
    }

    @Test(
        "a wrong password and an unknown email are user.sign_in_failed with a reason, never the password",
        arguments: TokenBackend.allCases)
    func signInFailures(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            _ = try await fixture.admin(
                .post, "/admin/users", token: token,
                json: #"{"email": "grace@example.com", "password": "\#(Self.password)"}"#)
            let wrong = "not the password at all"
            for email in ["grace@example.com", "nobody@example.com"] {
                fixture.clock.advance(by: 1)
                await #expect(throws: AccountError.invalidCredentials) {
                    try await fixture.provider.passwordSignIn.signIn(
                        email: email, password: wrong, from: RequestOrigin(ip: "192.0.2.7"))
                }
            }
            let page = try await fixture.admin(.get, "/admin/events?type=user.sign_in_failed", token: token)
            let events = page.objects(in: "events")
            #expect(
                events.map { $0["details"]?.objectValue?["reason"]?.stringValue } == ["unknown_user", "wrong_password"])
            #expect(events.allSatisfy { $0["ip"]?.stringValue == "192.0.2.7" })
            #expect(events.last?["user"]?.stringValue != nil && events.first?["user"] == .null)
            #expect(!page.text.contains(wrong) && !page.text.contains("nobody@example.com"))
        }
    }
}
