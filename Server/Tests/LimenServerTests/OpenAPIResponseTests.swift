import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Real answers of the server held to `Server/openapi.yaml`: each status is one its operation documents, and each
/// JSON object sends only the members its schema names and every member the schema requires.
@Suite("OpenAPI document: responses")
struct OpenAPIResponseTests {
    /// Checks answers against one reading of the document.
    private struct Checker: Sendable {
        let document: OpenAPIDocument

        /// `response` answered `operation` (`METHOD /path` as documented) with a documented status, and its JSON body
        /// is a `schema` when one is named.
        func expect(
            _ response: RecordedResponse,
            answers operation: String,
            as schema: String? = nil,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let statuses = document.statuses[operation] ?? []
            #expect(
                statuses.contains(response.status.code),
                "\(operation) answered \(response.status.code), not among \(statuses.sorted())",
                sourceLocation: sourceLocation)
            if let schema { expect(response.json, is: schema, sourceLocation: sourceLocation) }
        }

        /// `object` sends only the members `schema` names and all it requires, each string member one of the values
        /// the schema allows.
        func expect(
            _ object: [String: JSONValue],
            is schema: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            guard let members = document.schemas[schema] else {
                Issue.record("no schema \(schema) in openapi.yaml", sourceLocation: sourceLocation)
                return
            }
            let sent = Set(object.keys)
            #expect(
                sent.subtracting(members.named).isEmpty,
                "\(schema): undocumented members \(sent.subtracting(members.named).sorted())",
                sourceLocation: sourceLocation)
            #expect(
                members.required.subtracting(sent).isEmpty,
                "\(schema): required members missing \(members.required.subtracting(sent).sorted())",
                sourceLocation: sourceLocation)
            for (name, allowed) in members.values {
                guard let value = object[name]?.stringValue else { continue }
                #expect(
                    allowed.contains(value), "\(schema): \(name) is \(value), not among \(allowed.sorted())",
                    sourceLocation: sourceLocation)
            }
        }
    }

    @Test("discovery, keys, health, metrics and the stylesheet answer as documented")
    func discoveryAndOperations() async throws {
        let check = Checker(document: try OpenAPIDocument())
        try await TokenFixture.run { fixture in
            for path in ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"] {
                check.expect(try await fixture.get(path), answers: "GET \(path)", as: "ProviderMetadata")
            }
            let jwks = try await fixture.get("/jwks")
            check.expect(jwks, answers: "GET /jwks", as: "JWKSet")
            for key in jwks.objects(in: "keys") { check.expect(key, is: "JWK") }
            check.expect(try await fixture.get("/healthz"), answers: "GET /healthz", as: "Health")
            check.expect(try await fixture.get("/metrics"), answers: "GET /metrics")
            check.expect(try await fixture.get("/static/limen.css"), answers: "GET /static/limen.css")
        }
    }

    @Test("a path asked with a method it does not document is 404, as the document says")
    func undocumentedMethod() async throws {
        try await TokenFixture.run { fixture in
            let answers = [
                try await fixture.post("/jwks", []), try await fixture.get("/token"),
                try await fixture.admin(.put, "/admin/users/x", token: nil),
            ]
            #expect(answers.map(\.status) == [.notFound, .notFound, .notFound])
        }
    }

    @Test("the token, device, revocation, introspection and userinfo endpoints answer as documented")
    func oauthEndpoints() async throws {
        let check = Checker(document: try OpenAPIDocument())
        try await TokenFixture.run { fixture in
            let tokens = try await fixture.signIn()
            check.expect(tokens, answers: "POST /token", as: "TokenResponse")
            let accessToken = try #require(tokens["access_token"])
            let refreshed = try await fixture.refresh(try #require(tokens["refresh_token"]))
            check.expect(refreshed, answers: "POST /token", as: "TokenResponse")
            let wrongGrant = try await fixture.post("/token", [("grant_type", "password"), ("client_id", "native")])
            check.expect(wrongGrant, answers: "POST /token", as: "OAuthError")
            let json = try await fixture.post("/token", [], headers: [.contentType: "application/json"], body: "{}")
            check.expect(json, answers: "POST /token", as: "OAuthError")
            let tooLarge = try await fixture.post("/token", [("code", String(repeating: "a", count: 70_000))])
            check.expect(tooLarge, answers: "POST /token", as: "OAuthError")
            let badSecret = try await fixture.post(
                "/token", [("grant_type", "refresh_token"), ("refresh_token", "x")],
                headers: TokenFixture.basic("web", "wrong"))
            check.expect(badSecret, answers: "POST /token", as: "OAuthError")

            let device = try await fixture.post(
                "/device_authorization", [("client_id", "limen-cli"), ("scope", "openid")])
            check.expect(device, answers: "POST /device_authorization", as: "DeviceAuthorizationResponse")
            let pending = try await fixture.post(
                "/token",
                [
                    ("grant_type", GrantType.deviceCode.rawValue), ("device_code", try #require(device["device_code"])),
                    ("client_id", "limen-cli"),
                ])
            check.expect(pending, answers: "POST /token", as: "OAuthError")

            let introspected = try await fixture.post(
                "/introspect", [("token", accessToken)], headers: TokenFixture.basic("web", TokenFixture.webSecret))
            check.expect(introspected, answers: "POST /introspect", as: "IntrospectionResponse")
            let publicClient = try await fixture.post("/introspect", [("token", accessToken), ("client_id", "native")])
            check.expect(publicClient, answers: "POST /introspect", as: "OAuthError")

            check.expect(try await fixture.userInfo(accessToken), answers: "GET /userinfo", as: "UserInfo")
            check.expect(try await fixture.get("/userinfo"), answers: "GET /userinfo")
            let withoutOpenID = try await fixture.signIn(scope: "email")
            let narrow = try await fixture.userInfo(try #require(withoutOpenID["access_token"]))
            check.expect(narrow, answers: "GET /userinfo")
            let posted = try await fixture.post("/userinfo", [("access_token", accessToken)])
            check.expect(posted, answers: "POST /userinfo", as: "UserInfo")

            let revoked = try await fixture.post("/revoke", [("token", accessToken), ("client_id", "native")])
            check.expect(revoked, answers: "POST /revoke")
            check.expect(try await fixture.userInfo(accessToken), answers: "GET /userinfo")
        }
    }

    @Test("the AppleSignInKit routes answer as documented, refusals included")
    func appleSignInKit() async throws {
        let check = Checker(document: try OpenAPIDocument())
        try await AppleFixture.run { fixture in
            let signedIn = try await fixture.signIn(try await fixture.identityToken(), fullName: "Ada")
            check.expect(signedIn, answers: "POST /auth/apple/native", as: "AppleSignInKitSession")
            check.expect(signedIn.user, is: "AppleSignInKitUser")
            let refused = try await fixture.signIn(try await fixture.identityToken(), rawNonce: "other")
            check.expect(refused, answers: "POST /auth/apple/native", as: "AppleSignInKitError")
            let malformed = try await fixture.postJSON(AppleSignInKitRoutes.nativePath, "{")
            check.expect(malformed, answers: "POST /auth/apple/native", as: "AppleSignInKitError")
            let refreshToken = try #require(signedIn["refreshToken"])
            let refreshed = try await fixture.refresh(refreshToken)
            check.expect(refreshed, answers: "POST /auth/refresh", as: "AppleSignInKitTokens")
            let accessToken = try #require(refreshed["accessToken"])
            let me = try await fixture.me(accessToken)
            check.expect(me, answers: "GET /auth/me")
            check.expect(me.user, is: "AppleSignInKitUser")
            check.expect(try await fixture.logout(accessToken), answers: "POST /auth/logout")
            check.expect(try await fixture.me(accessToken), answers: "GET /auth/me", as: "AppleSignInKitError")
            let notified = try await fixture.notify(try await fixture.notification("email-disabled"))
            check.expect(notified, answers: "POST /auth/apple/notifications")
            let forged = try await fixture.notify("not.a.jwt")
            check.expect(forged, answers: "POST /auth/apple/notifications", as: "AppleSignInKitError")
            let latestRefreshToken = try #require(refreshed["refreshToken"])
            let ended = try await fixture.refresh(latestRefreshToken)
            check.expect(ended, answers: "POST /auth/refresh", as: "AppleSignInKitError")
        }
    }

    @Test("the app-to-app routes answer as documented, refusals included")
    func appToApp() async throws {
        let check = Checker(document: try OpenAPIDocument())
        try await AppToAppFixture.run { app in
            let begin = "POST /authorize/app2app"
            let approve = "POST /authorize/app2app/approve"
            let begun = try await app.begin()
            check.expect(begun, answers: begin, as: "AppToAppRequest")
            check.expect(try await app.begin(bearer: nil), answers: begin, as: "AppToAppError")
            let refused = try await app.begin(request: AppToAppFixture.request([("scope", "email")]))
            check.expect(refused, answers: begin, as: "AppToAppError")
            check.expect(
                try await app.begin(request: AppToAppFixture.request([("prompt", "login")])), answers: begin,
                as: "AppToAppError")
            let notHost = try await app.begin(bearer: try await app.hostToken(clientID: "native"))
            check.expect(notHost, answers: begin, as: "AppToAppError")
            let approval = try #require(begun["approval"])
            check.expect(try await app.decide(approval, "approve"), answers: approve, as: "AppToAppRedirect")
            check.expect(try await app.decide(approval, "approve"), answers: approve, as: "AppToAppError")
        }
    }

    @Test("a token for an RFC 8707 resource, and a resource the server does not list, answer as documented")
    func resourceIndicators() async throws {
        let check = Checker(document: try OpenAPIDocument())
        let api = "https://api.example/"
        let listed: (inout ServerConfiguration) -> Void = { $0.resources = [api] }
        try await TokenFixture.run(configure: listed) { fixture in
            let code = try await fixture.issueCode()
            let exchange: [(String, String)] = [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.nativeRedirect),
                ("client_id", "native"), ("code_verifier", PKCE.fixture.verifier),
            ]
            let tokens = try await fixture.post("/token", exchange + [("resource", api)])
            check.expect(tokens, answers: "POST /token", as: "TokenResponse")
            let introspected = try await fixture.post(
                "/introspect", [("token", try #require(tokens["access_token"]))],
                headers: TokenFixture.basic("web", TokenFixture.webSecret))
            check.expect(introspected, answers: "POST /introspect", as: "IntrospectionResponse")
            #expect(introspected.json["aud"] == .array([.string(api), .string(fixture.provider.issuer.current)]))
            let elsewhere = try await fixture.post(
                "/token", exchange + [("resource", "https://elsewhere.example/")])
            #expect(elsewhere.error == "invalid_target")
            check.expect(elsewhere, answers: "POST /token", as: "OAuthError")
        }
    }

    @Test("the flow routes answer as documented: every node type, its collectors and details")
    func flows() async throws {
        let check = Checker(document: try OpenAPIDocument())
        try await FlowFixture.run { fixture in
            let started = try await fixture.startFlow("sign-in")
            check.expect(started, answers: "POST /flows/{flow}", as: "FlowAnswer")
            check.expect(started.node, is: "FlowContinueNode")
            for collector in started.collectors { check.expect(collector, is: "FlowCollector") }
            let id = try #require(started["interaction"])
            let wrong = try await fixture.continueFlow(id, node: "credentials", action: "submit")
            check.expect(wrong, answers: "POST /flows/interactions/{id}", as: "FlowAnswer")
            check.expect(wrong.node, is: "FlowErrorNode")
            let signUp = try await fixture.continueFlow(id, node: "credentials", action: "create-account")
            for collector in signUp.collectors {
                check.expect(collector, is: "FlowCollector")
                if let policy = collector["policy"]?.objectValue { check.expect(policy, is: "PasswordPolicy") }
            }
            let short = try await fixture.continueFlow(
                id, node: "details", action: "submit", values: ["password": .string("x")])
            #expect(!short.details.isEmpty)
            for detail in short.details { check.expect(detail, is: "FlowErrorDetail") }
            let success = try await fixture.signInThroughFlow()
            check.expect(success, answers: "POST /flows/interactions/{id}", as: "FlowAnswer")
            check.expect(success.node, is: "FlowSuccessNode")
            let unknown = try await fixture.continueFlow("nope", node: "x", action: "y")
            check.expect(unknown, answers: "POST /flows/interactions/{id}", as: "FlowAnswer")
            check.expect(unknown.node, is: "FlowFailureNode")
            let badStart = try await fixture.startFlow("nope")
            check.expect(badStart, answers: "POST /flows/{flow}", as: "FlowAnswer")
        }
    }

    @Test("the admin API answers as documented, off and on")
    func adminAPI() async throws {
        let check = Checker(document: try OpenAPIDocument())
        try await TokenFixture.run { fixture in
            check.expect(try await fixture.admin(.get, "/admin/clients", token: nil), answers: "GET /admin/clients")
            let token = try await fixture.installAdminToken()
            check.expect(try await fixture.admin(.get, "/admin/users", token: nil), answers: "GET /admin/users")

            let clientJSON = #"{"client_id": "svc", "redirect_uris": ["https://svc.example/cb"]}"#
            let created = try await fixture.admin(.post, "/admin/clients", token: token, json: clientJSON)
            check.expect(created, answers: "POST /admin/clients", as: "AdminClient")
            let again = try await fixture.admin(.post, "/admin/clients", token: token, json: clientJSON)
            check.expect(again, answers: "POST /admin/clients", as: "Error")
            let text = try await fixture.admin(
                .post, "/admin/clients", token: token, json: clientJSON, contentType: "text/plain")
            check.expect(text, answers: "POST /admin/clients", as: "Error")
            let list = try await fixture.admin(.get, "/admin/clients", token: token)
            check.expect(list, answers: "GET /admin/clients", as: "AdminClientList")
            for client in list.objects(in: "clients") { check.expect(client, is: "AdminClient") }
            let one = try await fixture.admin(.get, "/admin/clients/svc", token: token)
            check.expect(one, answers: "GET /admin/clients/{id}", as: "AdminClient")
            let deleted = try await fixture.admin(.delete, "/admin/clients/svc", token: token)
            check.expect(deleted, answers: "DELETE /admin/clients/{id}")
            let gone = try await fixture.admin(.get, "/admin/clients/svc", token: token)
            check.expect(gone, answers: "GET /admin/clients/{id}", as: "Error")

            let userJSON = #"{"email": "bob@example.com", "password": "correct horse", "name": "Bob"}"#
            let user = try await fixture.admin(.post, "/admin/users", token: token, json: userJSON)
            check.expect(user, answers: "POST /admin/users", as: "AdminUser")
            let id = try #require(user["id"])
            let page = try await fixture.admin(.get, "/admin/users?limit=1", token: token)
            check.expect(page, answers: "GET /admin/users", as: "AdminUserPage")
            for listed in page.objects(in: "users") { check.expect(listed, is: "AdminUser") }
            let badLimit = try await fixture.admin(.get, "/admin/users?limit=0", token: token)
            check.expect(badLimit, answers: "GET /admin/users", as: "Error")
            let patched = try await fixture.admin(
                .patch, "/admin/users/\(id)", token: token, json: #"{"name": null, "email_verified": true}"#)
            check.expect(patched, answers: "PATCH /admin/users/{id}", as: "AdminUser")
            let unknownMember = try await fixture.admin(
                .patch, "/admin/users/\(id)", token: token, json: #"{"email": "x@example.com"}"#)
            check.expect(unknownMember, answers: "PATCH /admin/users/{id}", as: "Error")
            check.expect(
                try await fixture.admin(.get, "/admin/users/\(id)", token: token), answers: "GET /admin/users/{id}",
                as: "AdminUser")
            check.expect(
                try await fixture.admin(.delete, "/admin/users/\(id)", token: token),
                answers: "DELETE /admin/users/{id}")
        }
    }

    @Test("the app schema and profile routes answer as documented, refusals included")
    func profiles() async throws {
        let check = Checker(document: try OpenAPIDocument())
        try await TokenFixture.runAdmin { fixture, admin in
            let schema = try await fixture.admin(
                .put, "/admin/app/schema", token: admin, json: TokenFixture.profileSchemaJSON)
            check.expect(schema, answers: "PUT /admin/app/schema", as: "AppSchema")
            for field in (schema.json["fields"]?.objectValue ?? [:]).values.compactMap(\.objectValue) {
                check.expect(field, is: "ProfileField")
            }
            let badSchema = try await fixture.admin(.put, "/admin/app/schema", token: admin, json: #"{"fields": 1}"#)
            check.expect(badSchema, answers: "PUT /admin/app/schema", as: "Error")
            check.expect(
                try await fixture.admin(.get, "/admin/app/schema", token: admin), answers: "GET /admin/app/schema",
                as: "AppSchema")
            let app = try await fixture.get("/v1/app")
            check.expect(app, answers: "GET /v1/app", as: "App")

            let token = try await fixture.accessToken()
            check.expect(
                try await fixture.profileRequest(.get, token: token), answers: "GET /v1/me/data", as: "ProfileData")
            check.expect(try await fixture.profileRequest(.get, token: nil), answers: "GET /v1/me/data")
            let put = try await fixture.profileRequest(.put, token: token, json: #"{"data": {"given_name": "Ada"}}"#)
            check.expect(put, answers: "PUT /v1/me/data", as: "ProfileData")
            let refused = try await fixture.profileRequest(.put, token: token, json: #"{"data": {"age": "x"}}"#)
            check.expect(refused, answers: "PUT /v1/me/data", as: "ProfileError")
            let stale = try await fixture.profileRequest(
                .patch, token: token, json: #"{"data": {"age": 1}}"#, ifMatch: "\"0\"")
            check.expect(stale, answers: "PATCH /v1/me/data", as: "ProfileError")
            let media = try await fixture.profileRequest(
                .patch, token: token, json: #"{"data": {"age": 1}}"#, contentType: "application/json")
            check.expect(media, answers: "PATCH /v1/me/data", as: "ProfileError")
            let patched = try await fixture.profileRequest(.patch, token: token, json: #"{"data": {"age": 1}}"#)
            check.expect(patched, answers: "PATCH /v1/me/data", as: "ProfileData")
            let scope = try await fixture.profileRequest(.get, token: try await fixture.accessToken(scope: "openid"))
            check.expect(scope, answers: "GET /v1/me/data")
            check.expect(try await fixture.userInfo(token), answers: "GET /userinfo", as: "UserInfo")

            let path = "/admin/users/user-1/data"
            check.expect(
                try await fixture.admin(.get, path, token: admin), answers: "GET /admin/users/{id}/data",
                as: "ProfileData")
            check.expect(
                try await fixture.admin(.get, "/admin/users/nobody/data", token: admin),
                answers: "GET /admin/users/{id}/data", as: "ProfileError")
            check.expect(
                try await fixture.admin(.put, path, token: admin, json: #"{"data": {"plan": "pro"}}"#),
                answers: "PUT /admin/users/{id}/data", as: "ProfileData")
            check.expect(
                try await fixture.admin(
                    .patch, path, token: admin, json: #"{"data": {"plan": 1}}"#, contentType: ProfileBody.mergePatchType
                ),
                answers: "PATCH /admin/users/{id}/data", as: "ProfileError")
            check.expect(try await fixture.admin(.get, path, token: nil), answers: "GET /admin/users/{id}/data")
        }
    }

    @Test("the pages answer as documented, refusals included")
    func pages() async throws {
        let check = Checker(document: try OpenAPIDocument())
        try await TokenFixture.run { fixture in
            let silent = try await fixture.get(
                "/authorize?client_id=native&response_type=code&scope=openid&prompt=none&redirect_uri="
                    + FormEncoding.escape(TokenFixture.nativeRedirect) + "&code_challenge=\(PKCE.fixture.challenge)"
                    + "&code_challenge_method=S256")
            #expect(silent.status == .found)
            check.expect(silent, answers: "GET /authorize")
            let unknown = try await fixture.get(
                "/authorize?client_id=nobody&response_type=code&scope=openid", headers: [.accept: "application/json"])
            check.expect(unknown, answers: "GET /authorize", as: "OAuthError")
            let form = try await fixture.post(
                "/authorize",
                [
                    ("client_id", "native"), ("response_type", "code"), ("scope", "openid"),
                    ("redirect_uri", TokenFixture.nativeRedirect), ("code_challenge", PKCE.fixture.challenge),
                    ("code_challenge_method", "S256"),
                ])
            #expect(form.status == .ok)
            check.expect(form, answers: "POST /authorize")
            for path in ["/login", "/signup", "/password-reset", "/email-code", "/phone-code"] {
                check.expect(try await fixture.get("\(path)?request=unknown"), answers: "GET \(path)")
                check.expect(try await fixture.post(path, [("request", "unknown")]), answers: "POST \(path)")
            }
            check.expect(try await fixture.post("/consent", [("decision", "allow")]), answers: "POST /consent")
            check.expect(try await fixture.get("/logout"), answers: "GET /logout")
            check.expect(try await fixture.post("/logout", [("csrf", "forged")]), answers: "POST /logout")
            check.expect(try await fixture.get("/end_session"), answers: "GET /end_session")
            let endSession = try await fixture.post("/end_session", [("client_id", "nobody")])
            check.expect(endSession, answers: "POST /end_session")
            check.expect(try await fixture.get("/device?user_code=ABCD-EFGH"), answers: "GET /device")
            check.expect(try await fixture.post("/device", [("user_code", "ABCD-EFGH")]), answers: "POST /device")
            check.expect(try await fixture.get("/account"), answers: "GET /account")
            check.expect(try await fixture.post("/account", [("csrf", "forged")]), answers: "POST /account")
            let notForm = try await fixture.post("/consent", [], headers: [.contentType: "text/plain"], body: "x")
            check.expect(notForm, answers: "POST /consent")
        }
    }

    @Test("a POST over the rate limit is 429 with Retry-After and the documented error object")
    func rateLimited() async throws {
        let check = Checker(document: try OpenAPIDocument())
        let oneAtATime: (inout ServerConfiguration) -> Void = {
            $0.postRateLimit = RateLimit(burst: 1, perSecond: 0.001)
        }
        try await TokenFixture.run(configure: oneAtATime) { fixture in
            _ = try await fixture.post("/revoke", [("token", "x"), ("client_id", "native")])
            let limited = try await fixture.post("/revoke", [("token", "x"), ("client_id", "native")])
            #expect(limited.status == .tooManyRequests)
            #expect(limited.headers[.retryAfter] != nil)
            check.expect(limited, answers: "POST /revoke", as: "Error")
        }
    }
}
