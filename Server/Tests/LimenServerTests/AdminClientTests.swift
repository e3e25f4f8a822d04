import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Admin API: clients")
struct AdminClientTests {
    static let webClient = """
        {"client_id": "shop", "client_name": "Shop", "redirect_uris": ["https://shop.example/cb"],
         "post_logout_redirect_uris": ["https://shop.example/"], "first_party": true}
        """

    @Test("registering a confidential client shows its secret once and stores only the secret's hash")
    func secretShownOnce() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let created = try await fixture.admin(.post, "/admin/clients", token: token, json: Self.webClient)
            #expect(created.status == .created)
            #expect(created.headers[.cacheControl] == "no-store")
            #expect(created["kind"] == "confidential")
            #expect(created.json["first_party"] == .bool(true))
            #expect(created.json["allow_no_pkce"] == .bool(false), "PKCE is required unless asked otherwise")
            let secret = try #require(created["client_secret"])
            let stored = try #require(try await fixture.provider.store.client(id: "shop"))
            #expect(stored.secretHash == ClientSecret.hash(secret))
            #expect(!created.text.contains(Base64URL.encode(ClientSecret.hash(secret))))

            let read = try await fixture.admin(.get, "/admin/clients/shop", token: token)
            #expect(read.status == .ok)
            #expect(read["client_name"] == "Shop")
            #expect(read.json["client_secret"] == nil)
            #expect(!read.text.contains(secret))
            let list = try await fixture.admin(.get, "/admin/clients", token: token)
            #expect(!list.text.contains(secret))
            #expect(!list.text.contains("secret"), "neither secrets nor their hashes are listed")
        }
    }

    @Test("a legacy confidential client may be let off PKCE; the resource says so")
    func legacyClientWithoutPKCE() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let body = #"{"client_id": "legacy", "redirect_uris": ["https://a.example/cb"], "allow_no_pkce": true}"#
            let created = try await fixture.admin(.post, "/admin/clients", token: token, json: body)
            #expect(created.status == .created)
            #expect(created.json["allow_no_pkce"] == .bool(true))
            #expect(try await fixture.provider.store.client(id: "legacy")?.allowsNoPKCE == true)
        }
    }

    @Test("a client may be registered for the token exchange grant; without grant_types it has the default two")
    func grantTypes() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let body = """
                {"client_id": "app", "native": true, "redirect_uris": ["com.example.app:/cb"],
                 "grant_types": ["refresh_token", "urn:ietf:params:oauth:grant-type:token-exchange", "refresh_token"]}
                """
            let created = try await fixture.admin(.post, "/admin/clients", token: token, json: body)
            #expect(created.status == .created)
            let expected: [GrantType] = [.refreshToken, .tokenExchange]
            #expect(created.json["grant_types"] == .array(expected.map { .string($0.rawValue) }))
            #expect(try await fixture.provider.store.client(id: "app")?.grantTypes == expected)
            let plain = try await fixture.admin(
                .post, "/admin/clients", token: token,
                json: #"{"client_id": "plain", "redirect_uris": ["https://a.example/cb"]}"#)
            #expect(plain.json["grant_types"] == .array(["authorization_code", "refresh_token"].map(JSONValue.string)))
        }
    }

    @Test("the list has every registered client")
    func list() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let list = try await fixture.admin(.get, "/admin/clients", token: token)
            #expect(list.status == .ok)
            let ids = list.objects(in: "clients").compactMap { $0["client_id"]?.stringValue }
            #expect(ids == ["backend", "limen-cli", "native", "web"])
        }
    }

    @Test("a public native client gets no secret")
    func publicClient() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let created = try await fixture.admin(
                .post, "/admin/clients", token: token,
                json: #"{"client_id": "app", "native": true, "redirect_uris": ["com.example.app:/cb"]}"#)
            #expect(created.status == .created)
            #expect(created["kind"] == "public")
            #expect(created.json["client_secret"] == nil)
            #expect(try await fixture.provider.store.client(id: "app")?.secretHash == nil)
        }
    }

    @Test("registering an ID that exists is refused with 409 and leaves the client as it was")
    func duplicate() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let before = try await fixture.provider.store.client(id: "web")
            let response = try await fixture.admin(
                .post, "/admin/clients", token: token,
                json: #"{"client_id": "web", "redirect_uris": ["https://other.example/cb"]}"#)
            #expect(response.status == .conflict)
            #expect(response.error == "client_exists")
            #expect(response["error_description"]?.hasPrefix("client_id: ") == true)
            #expect(try await fixture.provider.store.client(id: "web") == before)
        }
    }

    @Test(
        "an invalid client is refused with 400 naming the member at fault",
        arguments: [
            (
                #"{"client_id": "x", "redirect_uris": ["http://app.example/cb"]}"#, "invalid_redirect_uri",
                "redirect_uris"
            ),
            (
                #"{"client_id": "x", "redirect_uris": ["https://a.example/cb"], "post_logout_redirect_uris": ["x"]}"#,
                "invalid_redirect_uri", "post_logout_redirect_uris"
            ),
            (#"{"client_id": "x"}"#, "invalid_redirect_uri", "redirect_uris"),
            (
                #"{"client_id": "no spaces", "redirect_uris": ["https://a.example/cb"]}"#, "invalid_client_metadata",
                "client_id"
            ),
            (
                #"{"client_id": "x", "redirect_uris": ["https://a.example/cb"], "access_token_ttl": 5}"#,
                "invalid_client_metadata", "access_token_ttl"
            ),
            (
                #"{"client_id": "x", "redirect_uris": ["https://a.example/cb"], "refresh_token_ttl": -1}"#,
                "invalid_client_metadata", "refresh_token_ttl"
            ),
            (
                #"{"client_id": "x", "redirect_uris": ["https://a.example/cb"], "id_token_signed_response_alg": "none"}"#,
                "invalid_client_metadata", "id_token_signed_response_alg"
            ),
            (
                #"{"client_id": "x", "kind": "public", "redirect_uris": ["https://a.example/cb"], "allow_no_pkce": true}"#,
                "invalid_client_metadata", "allow_no_pkce"
            ),
            (
                #"{"client_id": "x", "redirect_uris": ["https://a.example/cb"], "grant_types": ["implicit"]}"#,
                "invalid_client_metadata", "grant_types"
            ),
            (
                #"{"client_id": "x", "redirect_uris": ["https://a.example/cb"], "grant_types": []}"#,
                "invalid_client_metadata", "grant_types"
            ),
            (
                #"{"client_id": "x", "redirect_uris": ["https://a.example/cb"], "require_acr": "1"}"#,
                "invalid_client_metadata", "require_acr"
            ),
        ])
    func invalidClient(_ body: String, _ error: String, _ field: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let response = try await fixture.admin(.post, "/admin/clients", token: token, json: body)
            #expect(response.status == .badRequest)
            #expect(response.error == error)
            #expect(response["error_description"]?.hasPrefix("\(field): ") == true)
            #expect(try await fixture.provider.store.client(id: "x") == nil)
        }
    }

    @Test(
        "a body that is not the expected JSON is refused with 400 invalid_request naming the problem",
        arguments: [
            ("{\"client_id\": ", "the body is not valid JSON"),
            ("[1, 2]", "the body must be a JSON object"),
            (#"{"redirect_uris": []}"#, "client_id is required"),
            (#"{"client_id": 7, "redirect_uris": []}"#, "client_id must be of type"),
            (#"{"client_id": "x", "redirect_uris": "https://a.example/cb"}"#, "redirect_uris must be of type"),
            (#"{"client_id": "x", "redirect_uris": [], "kind": "secret"}"#, "kind must be public or confidential"),
        ])
    func malformedJSON(_ body: String, _ description: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let response = try await fixture.admin(.post, "/admin/clients", token: token, json: body)
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_request")
            #expect(response["error_description"]?.hasPrefix(description) == true)
        }
    }

    @Test("a body that is not JSON, or too large, is refused with 415 or 413")
    func bodyLimits() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let form = try await fixture.admin(
                .post, "/admin/clients", token: token, json: "client_id=x",
                contentType: "application/x-www-form-urlencoded")
            #expect(form.status == .unsupportedMediaType)
            #expect(form.error == "unsupported_media_type")
            let padding = String(repeating: " ", count: AdminJSON.maximumBodySize)
            let large = try await fixture.admin(.post, "/admin/clients", token: token, json: Self.webClient + padding)
            #expect(large.status == .contentTooLarge)
            #expect(try await fixture.provider.store.client(id: "shop") == nil)
        }
    }

    @Test("an unknown client ID is 404 for reading and deleting")
    func unknownClient() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let read = try await fixture.admin(.get, "/admin/clients/nobody", token: token)
            #expect(read.status == .notFound)
            #expect(read.error == "not_found")
            #expect(try await fixture.admin(.delete, "/admin/clients/nobody", token: token).status == .notFound)
        }
    }

    @Test("deleting a client removes it and ends its refresh tokens")
    func delete() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let refreshToken = try #require(try await fixture.signIn()["refresh_token"])
            let deleted = try await fixture.admin(.delete, "/admin/clients/native", token: token)
            #expect(deleted.status == .noContent)
            #expect(try await fixture.provider.store.client(id: "native") == nil)
            #expect(try await fixture.admin(.get, "/admin/clients/native", token: token).status == .notFound)
            #expect(try await fixture.refresh(refreshToken).status != .ok)
        }
    }
}

@Suite("Admin API: a client's email link")
struct AdminClientEmailLinkTests {
    @Test("a native client may register an email_link_uri (its scheme or a universal link); the resource shows it")
    func registered() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let body = """
                {"client_id": "mobile", "native": true, "redirect_uris": ["com.example.app:/cb"],
                 "email_link_uri": "com.example.app:/email-link"}
                """
            let created = try await fixture.admin(.post, "/admin/clients", token: token, json: body)
            #expect(created.status == .created)
            #expect(created["email_link_uri"] == "com.example.app:/email-link")
            #expect(
                try await fixture.provider.store.client(id: "mobile")?.emailLinkURI == "com.example.app:/email-link")
        }
    }

    @Test(
        "refused: a fragment (the link's own), plain http, a private scheme for a web client",
        arguments: [
            (#"{"client_id": "m", "native": true, "redirect_uris": ["com.example.app:/cb"], "#
                + #""email_link_uri": "https://app.example/link#x"}"#),
            #"{"client_id": "w", "redirect_uris": ["https://app.example/cb"], "email_link_uri": "http://app.example/l"}"#,
            #"{"client_id": "w", "redirect_uris": ["https://app.example/cb"], "email_link_uri": "com.example.app:/l"}"#,
        ])
    func refused(body: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let refused = try await fixture.admin(.post, "/admin/clients", token: token, json: body)
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("email_link_uri"))
        }
    }
}

@Suite("Admin API: an app-to-app host")
struct AdminClientAppToAppTests {
    @Test(
        "refused, naming app2app_host: a web client, a third-party native client",
        arguments: [
            #"{"client_id": "w", "first_party": true, "app2app_host": true, "redirect_uris": ["https://w.example/cb"]}"#,
            #"{"client_id": "m", "native": true, "app2app_host": true, "redirect_uris": ["com.example.m:/cb"]}"#,
        ])
    func refused(body: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let refused = try await fixture.admin(.post, "/admin/clients", token: token, json: body)
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains("app2app_host"))
            #expect(try await fixture.provider.store.clients().allSatisfy { !$0.isAppToAppHost })
        }
    }
}

@Suite("Admin API: a client's boolean traits")
struct AdminClientTraitTests {
    @Test(
        "a trait registered (a first-party native app2app_host, dpop_bound_access_tokens) is stored and shown; others say false",
        arguments: [
            (
                "app2app_host",
                #"{"client_id": "c", "native": true, "first_party": true, "app2app_host": true, "redirect_uris": ["com.example.c:/cb"]}"#
            ),
            (
                "dpop_bound_access_tokens",
                #"{"client_id": "c", "native": true, "dpop_bound_access_tokens": true, "redirect_uris": ["com.example.c:/cb"]}"#
            ),
        ])
    func registered(member: String, body: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let created = try await fixture.admin(.post, "/admin/clients", token: token, json: body)
            #expect(created.status == .created)
            #expect(created.json[member] == .bool(true))
            #expect(try await fixture.admin(.get, "/admin/clients/c", token: token).json[member] == .bool(true))
            #expect(try await fixture.admin(.get, "/admin/clients/native", token: token).json[member] == .bool(false))
        }
    }

    @Test("require_acr is stored and shown; a client without says nothing")
    func requiredACR() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let body =
                #"{"client_id": "c", "native": true, "require_acr": "mfa", "redirect_uris": ["com.example.c:/cb"]}"#
            let created = try await fixture.admin(.post, "/admin/clients", token: token, json: body)
            #expect(created.status == .created)
            #expect(
                try await fixture.admin(.get, "/admin/clients/c", token: token).json["require_acr"] == .string("mfa"))
            #expect(try await fixture.admin(.get, "/admin/clients/native", token: token).json["require_acr"] == nil)
        }
    }
}
