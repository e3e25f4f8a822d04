import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Admin API: editing a client and rotating its secret")
struct AdminClientChangeTests {
    /// The stored `admin.client_updated` and `admin.client_secret_rotated` events, newest first.
    private static func clientEvents(_ fixture: TokenFixture, _ type: SecurityEventType) async throws
        -> [SecurityEventRecord]
    {
        try await fixture.provider.store.securityEvents(SecurityEventFilter(type: type.rawValue), limit: 100)
    }

    /// `POST /introspect` of a garbage token by `web` with `secret`: 200 when it authenticates, 401 when not.
    private static func introspect(_ fixture: TokenFixture, secret: String) async throws -> RecordedResponse {
        try await fixture.post("/introspect", [("token", "garbage")], headers: TokenFixture.basic("web", secret))
    }

    @Test(
        "a patch changes the settings it gives, answers the client as GET does, and is recorded with the actor",
        arguments: TokenBackend.allCases)
    func patch(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            let body = """
                {"client_name": "Web shop", "redirect_uris": ["https://app.example/cb", "https://app.example/cb2"],
                 "post_logout_redirect_uris": ["https://app.example/bye"], "access_token_ttl": 600}
                """
            let changed = try await fixture.admin(.patch, "/admin/clients/web", token: token, json: body)
            #expect(changed.status == .ok)
            #expect(changed.headers[.cacheControl] == "no-store")
            #expect(changed["client_name"] == "Web shop")
            #expect(changed.json["access_token_ttl"] == .number(600))
            #expect(changed.json["client_secret"] == nil)
            let read = try await fixture.admin(.get, "/admin/clients/web", token: token)
            #expect(read.json == changed.json)
            let stored = try #require(try await fixture.provider.store.client(id: "web"))
            #expect(stored.redirectURIs == ["https://app.example/cb", "https://app.example/cb2"])
            #expect(stored.postLogoutRedirectURIs == ["https://app.example/bye"])
            #expect(stored.accessTokenLifetime == 600)
            #expect(stored.isProved(bySecret: TokenFixture.webSecret), "the secret stays")
            #expect(stored.idTokenSignedResponseAlg == .rs256, "what the patch does not name stays")

            let events = try await Self.clientEvents(fixture, .adminClientUpdated)
            #expect(events.count == 1)
            #expect(events.first?.client == "web" && events.first?.actor == "admin_token")
            #expect(
                events.first?.details
                    == #"{"fields":"access_token_ttl,name,post_logout_redirect_uris,redirect_uris"}"#)

            let cleared = try await fixture.admin(
                .patch, "/admin/clients/web", token: token, json: #"{"access_token_ttl": null}"#)
            #expect(cleared.status == .ok && cleared.json["access_token_ttl"] == nil)
            #expect(try await fixture.provider.store.client(id: "web")?.accessTokenLifetime == nil)
            #expect(try await fixture.provider.store.client(id: "web")?.name == "Web shop")

            let empty = try await fixture.admin(.patch, "/admin/clients/web", token: token, json: "{}")
            #expect(empty.status == .ok && empty["client_name"] == "Web shop")
            #expect(try await Self.clientEvents(fixture, .adminClientUpdated).count == 2, "an empty patch is no event")
        }
    }

    @Test(
        "a patch that breaks a registration rule is refused naming the member, and changes and records nothing",
        arguments: [
            (#"{"redirect_uris": ["http://app.example/cb"]}"#, "invalid_redirect_uri", "redirect_uris"),
            (#"{"redirect_uris": []}"#, "invalid_redirect_uri", "redirect_uris"),
            (#"{"redirect_uris": ["https://app.example/cb#x"]}"#, "invalid_redirect_uri", "redirect_uris"),
            (#"{"redirect_uris": ["com.example.app:/cb"]}"#, "invalid_redirect_uri", "redirect_uris"),
            (#"{"post_logout_redirect_uris": ["/relative"]}"#, "invalid_redirect_uri", "post_logout_redirect_uris"),
            (#"{"access_token_ttl": 5}"#, "invalid_client_metadata", "access_token_ttl"),
            (#"{"refresh_token_ttl": 31536001}"#, "invalid_client_metadata", "refresh_token_ttl"),
            (#"{"client_name": null}"#, "invalid_request", "client_name must not be null"),
            (#"{"redirect_uris": null}"#, "invalid_request", "redirect_uris must not be null"),
            (#"{"kind": "public"}"#, "invalid_request", "kind is not a member"),
            (#"{"access_token_ttl": "600"}"#, "invalid_request", "access_token_ttl must be of type"),
        ])
    func refusedPatch(_ body: String, _ error: String, _ description: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let before = try await fixture.provider.store.client(id: "web")
            let refused = try await fixture.admin(.patch, "/admin/clients/web", token: token, json: body)
            #expect(refused.status == .badRequest)
            #expect(refused.error == error)
            #expect(refused["error_description"]?.hasPrefix(description) == true, "\(refused.text)")
            #expect(try await fixture.provider.store.client(id: "web") == before)
            #expect(try await Self.clientEvents(fixture, .adminClientUpdated).isEmpty)
        }
    }

    @Test("a native client may be given a private-use redirect scheme and a loopback redirect, as at registration")
    func nativeRedirects() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let body = #"{"redirect_uris": ["com.example.app:/cb", "http://127.0.0.1/cb"]}"#
            let changed = try await fixture.admin(.patch, "/admin/clients/native", token: token, json: body)
            #expect(changed.status == .ok)
            #expect(
                try await fixture.provider.store.client(id: "native")?.redirectURIs
                    == ["com.example.app:/cb", "http://127.0.0.1/cb"])
        }
    }

    @Test("an unknown client, Limen Server's own, or no admin token: nothing is changed or rotated")
    func refusedTargets() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let body = #"{"client_name": "X"}"#
            for id in ["nobody", SeedClients.accountClientID] {
                let patched = try await fixture.admin(.patch, "/admin/clients/\(id)", token: token, json: body)
                #expect(patched.status == .notFound && patched.error == "not_found", "\(id)")
                let rotated = try await fixture.admin(.post, "/admin/clients/\(id)/rotate-secret", token: token)
                #expect(rotated.status == .notFound && rotated.error == "not_found", "\(id)")
            }
            for presented in [nil, "not-the-token"] {
                let patched = try await fixture.admin(.patch, "/admin/clients/web", token: presented, json: body)
                #expect(patched.status == .unauthorized)
                let rotated = try await fixture.admin(.post, "/admin/clients/web/rotate-secret", token: presented)
                #expect(rotated.status == .unauthorized)
            }
            #expect(try await fixture.provider.store.client(id: "web")?.name == "Web")
            #expect(try await Self.introspect(fixture, secret: TokenFixture.webSecret).status == .ok)
            #expect(try await Self.clientEvents(fixture, .adminClientUpdated).isEmpty)
            #expect(try await Self.clientEvents(fixture, .adminClientSecretRotated).isEmpty)
        }
    }

    @Test(
        "rotating a secret shows the new one once; the old one is refused at once; the event has the actor, never the secret",
        arguments: TokenBackend.allCases)
    func rotateSecret(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            // The record is cached by the first request: the rotation must reach the cache too.
            #expect(try await Self.introspect(fixture, secret: TokenFixture.webSecret).status == .ok)
            let rotated = try await fixture.admin(.post, "/admin/clients/web/rotate-secret", token: token)
            #expect(rotated.status == .ok)
            #expect(rotated.headers[.cacheControl] == "no-store")
            #expect(rotated["client_id"] == "web")
            let secret = try #require(rotated["client_secret"])
            #expect(secret != TokenFixture.webSecret && secret.count >= 43)

            let old = try await Self.introspect(fixture, secret: TokenFixture.webSecret)
            #expect(old.status == .unauthorized && old.error == "invalid_client")
            #expect(try await Self.introspect(fixture, secret: secret).status == .ok)
            let read = try await fixture.admin(.get, "/admin/clients/web", token: token)
            #expect(!read.text.contains(secret) && read.json["client_secret"] == nil)

            let events = try await Self.clientEvents(fixture, .adminClientSecretRotated)
            #expect(events.count == 1 && events.first?.client == "web" && events.first?.actor == "admin_token")
            let stored = try await fixture.provider.store.securityEvents(SecurityEventFilter(), limit: 1000)
            #expect(!stored.map { "\($0)" }.joined().contains(secret))

            let again = try await fixture.admin(.post, "/admin/clients/web/rotate-secret", token: token)
            let newer = try #require(again["client_secret"])
            #expect(newer != secret)
            #expect(try await Self.introspect(fixture, secret: secret).status == .unauthorized)
        }
    }

    @Test("a public client has no secret to rotate: 400, nothing stored, nothing recorded")
    func publicClient() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let refused = try await fixture.admin(.post, "/admin/clients/native/rotate-secret", token: token)
            #expect(refused.status == .badRequest && refused.error == "invalid_request")
            #expect(refused.json["client_secret"] == nil)
            #expect(try await fixture.provider.store.client(id: "native")?.secretHash == nil)
            #expect(try await Self.clientEvents(fixture, .adminClientSecretRotated).isEmpty)
        }
    }
}
