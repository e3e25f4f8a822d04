import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite(
    "Stateless nodes: two limen-server processes on one PostgreSQL database, behind nginx",
    .enabled(if: ScaleCluster.unavailableReason == nil, Comment(rawValue: ScaleCluster.unavailableReason ?? "")),
    .serialized  // one cluster (two nodes and their connection pools) at a time on a small machine
)
struct ScaleTests {
    @Test(
        "a user signs in through node A; node B redeems, refreshes, answers userinfo and revokes; A sees the revocation"
    )
    func signInOnOneNodeContinueOnTheOther() async throws {
        try await withScaleCluster { cluster in
            let accounts = Accounts(
                store: cluster.store, hasher: PasswordHasher(parameters: .testing), now: Date.init)
            let user = try await accounts.signUp(
                email: SignInFixture.email, password: SignInFixture.password, name: "Ada", origin: RequestOrigin())
            let (nodeA, nodeB) = (cluster.nodePorts[0], cluster.nodePorts[1])

            // The hosted pages on node A: the sign-in form, then the redirect to the client with a code.
            var browser = Browser()
            let form = try await browser.send(SignInFixture.authorizeURI()) {
                try await livePage(port: nodeA, $0, method: $1, headers: $2, body: $3)
            }
            #expect(form.status == .ok)
            let fields = [
                ("email", SignInFixture.email), ("password", SignInFixture.password),
                ("request", try #require(form.hiddenField("request"))),
                ("csrf", try #require(form.hiddenField("csrf"))),
            ]
            let landing = try await browser.send("/login", method: .post, form: fields) {
                try await livePage(port: nodeA, $0, method: $1, headers: $2, body: $3)
            }
            let redirect = try #require(landing.redirect, "no redirect: \(landing.status) \(landing.body.prefix(300))")
            #expect(redirect.query["iss"] == cluster.issuer, "the issuer is the proxy's URL")
            let code = try #require(redirect.query["code"])

            // Node B redeems the code node A issued; the ID token verifies with the keys nginx serves.
            let exchange = try await liveForm(
                port: nodeB, "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SignInFixture.cliRedirect),
                    ("client_id", "limen-cli"), ("code_verifier", PKCE.fixture.verifier),
                ])
            #expect(exchange.status == .ok, "\(exchange.body)")
            let tokens = exchange.json
            let validator = IDTokenValidator(
                issuer: cluster.issuer, clientID: "limen-cli",
                keys: JWKSCache(
                    jwksURI: try #require(URL(string: cluster.issuer + "/jwks")),
                    transport: URLSessionTransport.forLiveTests()))
            let claims = try await validator.validate(
                try #require(tokens["id_token"]?.stringValue), nonce: "n-1",
                accessToken: tokens["access_token"]?.stringValue)
            #expect(claims.subject == user.id)

            // Node B answers userinfo for it, refreshes it, and revokes the new refresh token.
            let accessToken = try #require(tokens["access_token"]?.stringValue)
            let userInfo = try await livePage(
                port: nodeB, "/userinfo", headers: [.authorization: "Bearer \(accessToken)"])
            #expect(userInfo.status == .ok)
            #expect(userInfo.json["sub"] == .string(user.id), "\(userInfo.body)")
            let refresh = { (port: Int, token: String) in
                try await liveForm(
                    port: port, "/token",
                    [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", "limen-cli")])
            }
            let refreshed = try await refresh(nodeB, try #require(tokens["refresh_token"]?.stringValue))
            #expect(refreshed.status == .ok, "\(refreshed.body)")
            let newRefreshToken = try #require(refreshed.json["refresh_token"]?.stringValue)
            let revoked = try await liveForm(
                port: nodeB, "/revoke", [("token", newRefreshToken), ("client_id", "limen-cli")])
            #expect(revoked.status == .ok)

            // Node A refuses the refresh token node B revoked.
            let refused = try await refresh(nodeA, newRefreshToken)
            #expect(refused.status == .badRequest)
            #expect(refused.json["error"] == .string("invalid_grant"))
        }
    }

    @Test("requests through nginx reach both nodes (each node's /metrics counts some), all under the proxy's issuer")
    func proxySpreadsRequests() async throws {
        try await withScaleCluster { cluster in
            let discovery = "/.well-known/openid-configuration"
            for _ in 1...4 {
                let page = try await livePage(port: cluster.proxyPort, discovery)
                #expect(page.status == .ok)
                #expect(page.json["issuer"] == .string(cluster.issuer), "\(page.body)")
            }
            var counts: [Int] = []
            for port in cluster.nodePorts {
                let metrics = try await livePage(port: port, "/metrics")
                counts.append(Self.requestCount(route: discovery, in: metrics.body))
            }
            #expect(counts.allSatisfy { $0 > 0 }, "requests per node: \(counts)")
            #expect(counts.reduce(0, +) == 4)
        }
    }

    @Test("a sign-in through nginx, its pages answered by different nodes in turn, ends in a code that gives tokens")
    func signInAcrossNodes() async throws {
        try await withScaleCluster { cluster in
            let accounts = Accounts(store: cluster.store, hasher: PasswordHasher(parameters: .testing), now: Date.init)
            _ = try await accounts.signUp(
                email: SignInFixture.email, password: SignInFixture.password, name: "Ada", origin: RequestOrigin())
            var browser = Browser()
            let form = try await browser.send(SignInFixture.authorizeURI()) {
                try await livePage(port: cluster.proxyPort, $0, method: $1, headers: $2, body: $3)
            }
            let fields = [
                ("email", SignInFixture.email), ("password", SignInFixture.password),
                ("request", try #require(form.hiddenField("request"))),
                ("csrf", try #require(form.hiddenField("csrf"))),
            ]
            let landing = try await browser.send("/login", method: .post, form: fields) {
                try await livePage(port: cluster.proxyPort, $0, method: $1, headers: $2, body: $3)
            }
            let code = try #require(landing.redirect?.query["code"], "\(landing.status) \(landing.body.prefix(300))")
            let exchange = try await liveForm(
                port: cluster.proxyPort, "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SignInFixture.cliRedirect),
                    ("client_id", "limen-cli"), ("code_verifier", PKCE.fixture.verifier),
                ])
            #expect(exchange.status == .ok, "\(exchange.body)")

            var served: [(authorize: Int, login: Int)] = []
            for port in cluster.nodePorts {
                let metrics = try await livePage(port: port, "/metrics").body
                served.append(
                    (
                        Self.requestCount(route: "/authorize", method: "GET", in: metrics),
                        Self.requestCount(route: "/login", method: "POST", in: metrics)
                    ))
            }
            #expect(served.map(\.authorize).reduce(0, +) == 1 && served.map(\.login).reduce(0, +) == 1)
            #expect(
                !served.contains { $0.authorize == 1 && $0.login == 1 }, "one node showed the form, the other took it")
        }
    }

    /// The `method` requests to `route` that a node's Prometheus text counts (Hummingbird's `hb_requests` counter).
    private static func requestCount(route: String, method: String = "GET", in metrics: String) -> Int {
        metrics.split(separator: "\n")
            .filter { $0.hasPrefix("hb_requests{") && $0.contains(#""\#(route)""#) && $0.contains(#""\#(method)""#) }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0) { $0 + Int($1) }
    }
}
