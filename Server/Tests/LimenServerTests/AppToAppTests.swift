import Foundation
import HTTPTypes
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

/// App-to-app sign-in: the provider's own app (`host`), signed in as Grace, approves the sign-in of another installed
/// app (`shop`, a third-party native client with a universal-link redirect).
@Suite("App-to-app sign-in: POST /authorize/app2app and /authorize/app2app/approve")
struct AppToAppTests {
    @Test("an approval gives the requesting app an ordinary code for the host's user, redeemed with its own PKCE")
    func approved() async throws {
        try await AppToAppFixture.run { app in
            let begun = try await app.begin()
            #expect(begun.status == .ok)
            #expect(begun.json["client"] == .object(["id": .string("shop"), "name": .string("Shop")]))
            #expect(begun.json["scopes"] == .array([.string("openid"), .string("email")]))
            #expect(begun.json["consent_required"] == .bool(true))
            #expect(begun.headers[.cacheControl] == "no-store")

            let approved = try await app.decide(try #require(begun["approval"]), "approve")
            #expect(approved.status == .ok)
            let redirect = try #require(approved["redirect"].flatMap(URLComponents.init(string:)))
            #expect(redirect.host == "shop.example" && redirect.path == "/cb")
            #expect(redirect.value("state") == "st-1")
            #expect(redirect.value("iss") == app.fixture.provider.issuer.current)

            let tokens = try await app.redeem(try #require(redirect.value("code")))
            #expect(tokens.status == .ok, "\(tokens.text)")
            let idToken = try UnverifiedJWT(try #require(tokens["id_token"]))
            #expect(idToken.subject == app.user.id)
            #expect(idToken.audience == ["shop"])
            #expect(idToken[claim: "nonce"] == .string("n-1"))

            let again = try await app.begin()
            #expect(again.json["consent_required"] == .bool(false), "approving allowed the scopes")
        }
    }

    @Test("a denial sends the requesting app access_denied with its state, and no code")
    func denied() async throws {
        try await AppToAppFixture.run { app in
            let begun = try await app.begin()
            let denied = try await app.decide(try #require(begun["approval"]), "deny")
            #expect(denied.status == .ok)
            let redirect = try #require(denied["redirect"].flatMap(URLComponents.init(string:)))
            #expect(redirect.value("error") == "access_denied")
            #expect(redirect.value("state") == "st-1")
            #expect(redirect.value("code") == nil)
        }
    }

    @Test("an approval is used once, lives five minutes, and only the user it was made for decides it")
    func approvalRules() async throws {
        try await AppToAppFixture.run { app in
            let approval = try #require(try await app.begin()["approval"])
            let otherUser = try await app.hostToken(for: app.otherUser)
            let stolen = try await app.decide(approval, "approve", bearer: otherUser)
            #expect(stolen.status == .badRequest && stolen.error == "invalid_grant")
            #expect(try await app.decide(approval, "approve").status == .ok, "another user's try consumed nothing")
            let replayed = try await app.decide(approval, "approve")
            #expect(replayed.status == .badRequest && replayed.error == "invalid_grant")

            let late = try #require(try await app.begin()["approval"])
            app.fixture.clock.advance(by: AppToAppAuthorization.approvalLifetime + 1)
            let expired = try await app.decide(late, "approve", bearer: try await app.hostToken())
            #expect(expired.status == .badRequest && expired.error == "invalid_grant")
            let unknown = try await app.decide("not-an-approval", "approve")
            #expect(unknown.status == .badRequest && unknown.error == "invalid_grant")
        }
    }

    @Test("refused hosts: no token, a forged one, one without openid, a client that is not a host, a guest")
    func refusedHosts() async throws {
        try await AppToAppFixture.run { app in
            let missing = try await app.begin(bearer: nil)
            #expect(missing.status == .unauthorized && missing.error == "invalid_token")
            #expect(missing.headers[.wwwAuthenticate] == #"Bearer realm="limen""#)
            let forged = try await app.begin(bearer: "eyJhbGciOiJub25lIn0.e30.")
            #expect(forged.status == .unauthorized && forged.error == "invalid_token")
            let noOpenID = try await app.begin(bearer: try await app.hostToken(scope: "email"))
            #expect(noOpenID.status == .forbidden && noOpenID.error == "insufficient_scope")
            let notHost = try await app.begin(bearer: try await app.hostToken(clientID: "native"))
            #expect(notHost.status == .forbidden && notHost.error == "unauthorized_client")
            #expect(notHost.headers[.wwwAuthenticate]?.contains("unauthorized_client") == true)
            let guest = try await app.begin(
                bearer: try await app.hostToken(
                    for: try await app.fixture.provider.accounts.createAnonymous(origin: RequestOrigin())))
            #expect(guest.status == .conflict && guest.error == "login_required", "\(guest.status) \(guest.text)")
            let approval = try #require(try await app.begin()["approval"])
            let decidedByNonHost = try await app.decide(
                approval, "approve", bearer: try await app.hostToken(clientID: "native"))
            #expect(decidedByNonHost.status == .forbidden)
        }
    }

    @Test("a DPoP-bound host token is taken with its proof; sent as Bearer, or with a proof for another URL, refused")
    func dpopBoundHost() async throws {
        try await AppToAppFixture.run { app in
            let device = DPoPTestClient(fixture: app.fixture)
            let code = try await app.fixture.issueCode(for: app.user, clientID: "host", scope: "openid email")
            let tokens = try await device.redeem(code, clientID: "host", proofs: [try device.proof()])
            let token = try TokenFixture.accessToken(tokens)
            #expect(tokens["token_type"] == "DPoP")

            let asBearer = try await app.begin(bearer: token)
            #expect(asBearer.status == .unauthorized && asBearer.error == "invalid_token")
            #expect(asBearer.headers[.wwwAuthenticate]?.hasPrefix("DPoP ") == true, "the resources' DPoP challenge")

            let wrongURL = try await app.begin(
                dpop: token, proof: try device.proof("POST", "/userinfo", accessToken: token))
            #expect(wrongURL.status == .unauthorized && wrongURL.error == "invalid_dpop_proof")
            let proved = try await app.begin(
                dpop: token, proof: try device.proof("POST", "/authorize/app2app", accessToken: token))
            #expect(proved.status == .ok, "\(proved.text)")
            #expect(proved["approval"] != nil)
        }
    }

    @Test("prompt=login, an exceeded max_age or acr_values above the host token's ask for a new sign-in first")
    func loginRequired() async throws {
        try await AppToAppFixture.run { app in
            app.fixture.clock.advance(by: 30)
            for extra in [[("prompt", "login")], [("max_age", "10")]] {
                let refused = try await app.begin(request: AppToAppFixture.request(extra))
                #expect(refused.status == .conflict && refused.error == "login_required", "\(extra)")
            }
            let young = try await app.begin(request: AppToAppFixture.request([("max_age", "60")]))
            #expect(young.status == .ok, "the host's sign-in, 30 s old, is within max_age=60")
            // The host's token is from a sign-in that recorded no method (acr 0): mfa is more than it has.
            let weak = try await app.begin(request: AppToAppFixture.request([("acr_values", "mfa")]))
            #expect(weak.status == .conflict && weak.error == "login_required", "acr_values above the host's acr")
        }
    }

    @Test(
        "the request is checked as /authorize checks it; once the redirect is established the error also goes back",
        arguments: [
            (AppToAppFixture.request([("client_id", "nobody")]), "invalid_client", false),
            (AppToAppFixture.request([("redirect_uri", "https://evil.example/cb")]), "invalid_request", false),
            (AppToAppFixture.request([("code_challenge", nil)]), "invalid_request", true),
            (AppToAppFixture.request([("scope", "email")]), "invalid_scope", true),
            (AppToAppFixture.request([("prompt", "none consent")]), "invalid_request", true),
            (
                AppToAppFixture.request([("client_id", "native"), ("redirect_uri", TokenFixture.nativeRedirect)]),
                "invalid_request", false
            ),
            ("client_id=shop&client_id=other", "invalid_request", false),
        ])
    func refusedRequests(request: String, error: String, redirects: Bool) async throws {
        try await AppToAppFixture.run { app in
            let refused = try await app.begin(request: request)
            #expect(refused.status == .badRequest)
            #expect(refused.error == error)
            let redirect = refused["redirect"].flatMap(URLComponents.init(string:))
            #expect((redirect != nil) == redirects)
            if let redirect {
                #expect(redirect.host == "shop.example" && redirect.value("error") == error)
            }
            #expect(try await app.pendingCount() == 0, "nothing is kept for a refused request")
        }
    }

    @Test(
        "refused bodies: not JSON, not a JSON object, the wrong media type, too large, a missing or unknown decision",
        arguments: [
            ("/authorize/app2app", "application/json", "{", HTTPResponse.Status.badRequest),
            ("/authorize/app2app", "application/json", "[]", .badRequest),
            ("/authorize/app2app", "application/json", #"{"request": 1}"#, .badRequest),
            ("/authorize/app2app", "application/x-www-form-urlencoded", "request=x", .unsupportedMediaType),
            (
                "/authorize/app2app", "application/json", #"{"request": "\#(String(repeating: "a", count: 40_000))"}"#,
                .contentTooLarge
            ),
            ("/authorize/app2app/approve", "application/json", #"{"approval": "a"}"#, .badRequest),
            ("/authorize/app2app/approve", "application/json", #"{"approval": "a", "decision": "maybe"}"#, .badRequest),
        ])
    func refusedBodies(path: String, contentType: String, body: String, status: HTTPResponse.Status) async throws {
        try await AppToAppFixture.run { app in
            let refused = try await app.fixture.send(
                .post, path,
                headers: [.authorization: "Bearer \(try await app.hostToken())", .contentType: contentType],
                body: body)
            #expect(refused.status == status)
            #expect(refused.error == "invalid_request")
        }
    }
}

/// A provider with the host app `host` (first party, native, app-to-app host) and the requesting app `shop`.
struct AppToAppFixture {
    /// The requesting app's universal-link redirect.
    static let shopRedirect = "https://shop.example/cb"

    let fixture: TokenFixture
    /// Grace, signed in to the host app (``FlowFixture``).
    let user: UserRecord
    /// The host app's access token for Grace, signed in just now.
    let hostToken: String
    /// Another user with an account.
    let otherUser: UserRecord

    static func run(_ body: @Sendable (AppToAppFixture) async throws -> Void) async throws {
        try await FlowFixture.run { fixture in
            let store = fixture.provider.store
            let now = fixture.clock.now
            try await store.insertClientIfAbsent(
                ClientRecord(
                    id: "host", name: "Host", kind: .public, isNative: true,
                    redirectURIs: [TokenFixture.nativeRedirect], isFirstParty: true, createdAt: now,
                    isAppToAppHost: true))
            try await store.insertClientIfAbsent(
                ClientRecord(
                    id: "shop", name: "Shop", kind: .public, isNative: true, redirectURIs: [shopRedirect],
                    createdAt: now))
            let user = try #require(try await store.user(email: FlowFixture.email))
            let other = try await fixture.provider.accounts.signUp(
                email: "bo@example.com", password: FlowFixture.password, name: "Bo", origin: RequestOrigin())
            let hostToken = try await Self.token(in: fixture, clientID: "host", user: user)
            try await body(AppToAppFixture(fixture: fixture, user: user, hostToken: hostToken, otherUser: other))
        }
    }

    /// The requesting app's authorization request, with `changes` (a `nil` value leaves the parameter out).
    static func request(_ changes: [(String, String?)] = []) -> String {
        var fields: [(String, String?)] = [
            ("response_type", "code"), ("client_id", "shop"), ("redirect_uri", shopRedirect),
            ("scope", "openid email"), ("state", "st-1"), ("nonce", "n-1"),
            ("code_challenge", PKCE.fixture.challenge), ("code_challenge_method", "S256"),
        ]
        for (name, value) in changes {
            if let index = fields.firstIndex(where: { $0.0 == name }) {
                fields[index].1 = value
            } else {
                fields.append((name, value))
            }
        }
        return FormEncoding.encode(fields.compactMap { name, value in value.map { (name, $0) } })
    }

    /// `POST /authorize/app2app` with the host's token and `request`.
    func begin(request: String = request()) async throws -> RecordedResponse {
        try await begin(bearer: hostToken, request: request)
    }

    /// `POST /authorize/app2app` with `bearer` (none when `nil`) and `request`.
    func begin(bearer: String?, request: String = request()) async throws -> RecordedResponse {
        try await post("/authorize/app2app", bearer: bearer, ["request": .string(request)])
    }

    /// `POST /authorize/app2app` with `Authorization: DPoP token` and the `DPoP` proof `proof`.
    func begin(dpop token: String, proof: String) async throws -> RecordedResponse {
        let body = JSONValue.object(["request": .string(Self.request())]).serialized()
        return try await fixture.send(
            .post, "/authorize/app2app",
            headers: [
                .contentType: "application/json", .authorization: "DPoP \(token)", DPoPTestClient.proofField: proof,
            ],
            body: String(decoding: body, as: UTF8.self))
    }

    /// `POST /authorize/app2app/approve` with `bearer` (the host's token unless told).
    func decide(_ approval: String, _ decision: String, bearer: String? = nil) async throws -> RecordedResponse {
        try await post(
            "/authorize/app2app/approve", bearer: bearer ?? hostToken,
            ["approval": .string(approval), "decision": .string(decision)])
    }

    /// The requesting app's code redeemed at `/token` with its PKCE verifier.
    func redeem(_ code: String) async throws -> RecordedResponse {
        try await fixture.post(
            "/token",
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.shopRedirect),
                ("client_id", "shop"), ("code_verifier", PKCE.fixture.verifier),
            ])
    }

    /// An access token of `clientID` (the host unless told) for `user` (Grace unless told) granting `scope`.
    func hostToken(
        for user: UserRecord? = nil, clientID: String = "host", scope: String = "openid email"
    ) async throws -> String {
        try await Self.token(in: fixture, clientID: clientID, user: user ?? self.user, scope: scope)
    }

    /// How many authorization requests are pending.
    func pendingCount() async throws -> Int {
        let store = try #require(fixture.provider.store as? SQLiteStore)
        return try await store.execute("SELECT id_hash FROM pending_authorizations").count
    }

    private static func token(
        in fixture: TokenFixture, clientID: String, user: UserRecord, scope: String = "openid email"
    ) async throws -> String {
        let code = try await fixture.issueCode(for: user, clientID: clientID, scope: scope)
        return try TokenFixture.accessToken(try await fixture.redeem(code, clientID: clientID))
    }

    private func post(
        _ path: String, bearer: String?, _ body: [String: JSONValue]
    ) async throws -> RecordedResponse {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        return try await fixture.send(
            .post, path, headers: headers, body: String(decoding: JSONValue.object(body).serialized(), as: UTF8.self))
    }
}

extension URLComponents {
    /// The value of the query parameter `name`.
    fileprivate func value(_ name: String) -> String? {
        queryItems?.first { $0.name == name }?.value
    }
}
