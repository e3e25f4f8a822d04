import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import LimenWire
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Upstream provider end to end: an app signs a user in through Limen through glewlwyd")
struct UpstreamGlewlwydTests {
    /// The app's redirect URI (a native app's loopback listener).
    private static let appRedirect = "http://127.0.0.1:53999/callback"

    @Test(
        "the sign-in page's button leads to glewlwyd and back; the app redeems the code for the linked user",
        .enabled(if: GlewlwydUpstream.unavailableReason == nil, "glewlwyd is not installed")
    )
    func signInThroughGlewlwyd() async throws {
        try await Self.withServer { glewlwyd, provider, client in
            try await Self.signIn(client: client, provider: provider, glewlwyd: glewlwyd)
        }
    }

    @Test(
        "in a real Chromium: Limen's sign-in page, glewlwyd's login page, Limen's consent, the app gets a code",
        .enabled(if: GlewlwydUpstream.unavailableReason == nil, "glewlwyd is not installed"),
        .enabled(if: ChromiumPeer.unavailableReason == nil, "Chromium is not installed")
    )
    func signInThroughGlewlwydInChromium() async throws {
        try await GlewlwydUpstream.with { glewlwyd in
            try await Self.withRedirectPort { port in
                try await withLiveServer(configure: { Self.offer(glewlwyd, port: port, in: &$0) }) { provider, issuer in
                    _ = try await ChromiumPeer.registerClient(in: provider, id: "app")
                    let output = try await PythonPeer.run([
                        ChromiumPeer.upstreamScript.path, "--issuer", issuer, "--client-id", "app", "--upstream-issuer",
                        glewlwyd.issuer, "--username", glewlwyd.username, "--password=\(glewlwyd.password)",
                    ])
                    let summary = try JSONDecoder().decode(UpstreamBrowserSummary.self, from: output)
                    #expect(summary.buttons == ["Continue with Glewlwyd"])
                    #expect(summary.upstreamPage.hasSuffix("/login.html"), "glewlwyd's own login page")
                    #expect(summary.stateMatches && summary.iss == issuer && summary.callbacks == 1)
                    for page in summary.pages {
                        #expect(page.violations.isEmpty, "\(page.page) at \(page.url): \(page.violations)")
                    }
                    let redeemed = try #require(
                        try await provider.store.redeemedCode(
                            hash: RandomIdentifier.hash(summary.code), now: provider.now(), clientID: "app"))
                    let identities = try await provider.store.identities(userID: redeemed.subject)
                    #expect(identities.map(\.kind).contains("oidc:\(glewlwyd.issuer)"))
                }
            }
        }
    }

    @Test(
        "a native flow's IDP collector: glewlwyd in the web session, back to the app with a code, the flow continues",
        .enabled(if: GlewlwydUpstream.unavailableReason == nil, "glewlwyd is not installed")
    )
    func nativeFlowThroughGlewlwyd() async throws {
        try await Self.withServer { glewlwyd, provider, client in
            let pkce = PKCE()
            let start = [
                ("client_id", "app"), ("redirect_uri", Self.appRedirect), ("scope", "openid email profile"),
                ("state", "app-state"), ("nonce", "app-nonce"), ("code_challenge", pkce.challenge),
                ("code_challenge_method", "S256"),
            ]
            let started = try await Self.json(
                client, "/flows/sign-in", form: start + [("action", "idp-glewlwyd")])
            let interaction = try #require(started["interaction"]?.stringValue)
            let node = try #require(started["node"]?.objectValue)
            #expect(node["type"] == .string("redirect"))
            let location = try #require(node["url"]?.stringValue)
            #expect(location.hasPrefix(glewlwyd.issuer + "/auth?"))
            let back = try await glewlwyd.signIn(at: location)
            let issuer = provider.issuer.current
            #expect(back.hasPrefix(issuer + "/federation/glewlwyd/callback?"), "\(back)")
            let toApp = try await client.executeRequest(
                uri: String(back.dropFirst(issuer.count)), method: .get, headers: [:], body: nil)
            let appLocation = try #require(toApp.headers[.location])
            let app = try #require(URLComponents(string: appLocation))
            #expect(app.host == "127.0.0.1" && app.path == "/callback")
            let query = Dictionary((app.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
            #expect(query["state"] == "app-state" && query["iss"] == issuer)
            let code = try #require(query["code"])
            let answer = try await Self.json(
                client, "/flows/interactions/\(interaction)",
                body: .object([
                    "node": .string("credentials"), "action": .string("idp-glewlwyd"),
                    "values": .object(["code": .string(code)]),
                ]))
            let success = try #require(answer["node"]?.objectValue)
            #expect(success["type"] == .string("success"))
            let appCode = try #require(success["code"]?.stringValue)
            let redeemed = try #require(
                try await provider.store.redeemedCode(
                    hash: RandomIdentifier.hash(appCode), now: provider.now(),
                    clientID: "app"))
            let identities = try await provider.store.identities(userID: redeemed.subject)
            #expect(identities.map(\.kind) == ["oidc:\(glewlwyd.issuer)"])
        }
    }

    /// The JSON object `path` answers to a form post of `form`, or to a JSON post of `body`.
    private static func json(
        _ client: some TestClientProtocol,
        _ path: String,
        form: [(String, String)]? = nil,
        body: JSONValue? = nil
    ) async throws -> [String: JSONValue] {
        let (contentType, text) =
            body.map { ("application/json", String(decoding: $0.serialized(), as: UTF8.self)) }
            ?? ("application/x-www-form-urlencoded", FormEncoding.encode(form ?? []))
        let response = try await client.executeRequest(
            uri: path, method: .post, headers: [.contentType: contentType], body: ByteBuffer(string: text))
        return try #require(try JSONValue(parsing: Data(String(buffer: response.body).utf8)).objectValue)
    }

    @Test(
        "in a real Chromium as the web session: a native flow's IDP collector, glewlwyd's login page, back to the app",
        .enabled(if: GlewlwydUpstream.unavailableReason == nil, "glewlwyd is not installed"),
        .enabled(if: ChromiumPeer.unavailableReason == nil, "Chromium is not installed")
    )
    func nativeFlowThroughGlewlwydInChromium() async throws {
        try await GlewlwydUpstream.with { glewlwyd in
            try await Self.withRedirectPort { port in
                try await withLiveServer(configure: { Self.offer(glewlwyd, port: port, in: &$0) }) { provider, issuer in
                    _ = try await ChromiumPeer.registerClient(in: provider, id: "app", firstParty: true)
                    let output = try await PythonPeer.run([
                        ChromiumPeer.nativeUpstreamScript.path, "--issuer", issuer, "--client-id", "app", "--username",
                        // One argument with `=`: a random password may start with "-", which argparse reads as an
                        // option.
                        glewlwyd.username, "--password=\(glewlwyd.password)",
                    ])
                    let summary = try JSONDecoder().decode(NativeUpstreamSummary.self, from: output)
                    #expect(summary.provider == "glewlwyd")
                    #expect(summary.upstreamPage.hasSuffix("/login.html"), "glewlwyd's own login page")
                    #expect(summary.stateMatches && summary.iss == issuer && summary.callbacks == 1)
                    #expect(!summary.consentAsked, "a first-party app (native flows are only for those) skips consent")
                    let redeemed = try #require(
                        try await provider.store.redeemedCode(
                            hash: RandomIdentifier.hash(summary.code), now: provider.now(), clientID: "app"))
                    let identities = try await provider.store.identities(userID: redeemed.subject)
                    #expect(identities.map(\.kind) == ["oidc:\(glewlwyd.issuer)"])
                }
            }
        }
    }

    /// Runs `body` with a port among glewlwyd's fixed redirect ports (where it knows Limen's callback), free and held
    /// for this test alone while `body` runs.
    private static func withRedirectPort(_ body: (Int) async throws -> Void) async throws {
        try await FixedPorts.withOne(of: Array(47111...47115), body)
    }

    /// Sets `configuration` to listen on `port` and offer glewlwyd as upstream provider `glewlwyd`.
    private static func offer(_ glewlwyd: GlewlwydUpstream, port: Int, in configuration: inout ServerConfiguration) {
        configuration.port = port
        configuration.identityProviders = [
            IdentityProvider(
                id: "glewlwyd", displayName: "Glewlwyd", issuer: glewlwyd.issuer, clientID: glewlwyd.clientID,
                clientSecret: glewlwyd.clientSecret)
        ]
    }

    /// Runs `body` with glewlwyd and Limen (HummingbirdTesting's live client; the issuer names a redirect port)
    /// offering glewlwyd as upstream provider `glewlwyd`, with the public client `app`.
    private static func withServer(
        _ body: @escaping @Sendable (GlewlwydUpstream, ServerComposition, any TestClientProtocol) async throws -> Void
    ) async throws {
        try await GlewlwydUpstream.with { glewlwyd in
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            var configuration = ServerConfiguration.testing(directory: directory)
            // Only the issuer names the port (the live test client binds its own): one glewlwyd knows is enough.
            Self.offer(glewlwyd, port: 47111, in: &configuration)
            let provider = try await ServerComposition.bootstrap(configuration: configuration)
            do {
                _ = try await ChromiumPeer.registerClient(in: provider, id: "app", firstParty: true)
                let app = Application(router: LimenServerApplication.router(composition: provider))
                try await app.test(.live) { client in try await body(glewlwyd, provider, client) }
            } catch {
                await provider.store.close()
                throw error
            }
            await provider.store.close()
        }
    }

    private static func signIn(
        client: some TestClientProtocol,
        provider: ServerComposition,
        glewlwyd: GlewlwydUpstream
    ) async throws {
        let pkce = PKCE()
        let authorize = [
            ("response_type", "code"), ("client_id", "app"), ("redirect_uri", appRedirect),
            ("scope", "openid email profile"), ("state", "app-state"), ("nonce", "app-nonce"),
            ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
        ]
        var browser = Browser()
        let signIn = try await browser.send(client, "/authorize?" + FormEncoding.encode(authorize))
        #expect(signIn.body.contains("Continue with Glewlwyd"))
        let toGlewlwyd = try await browser.submit(client, signIn, to: "/federation/glewlwyd/start", [])
        let location = try #require(toGlewlwyd.headers[.location])
        #expect(location.hasPrefix(glewlwyd.issuer + "/auth?"))
        let back = try await glewlwyd.signIn(at: location)
        let issuer = provider.issuer.current
        #expect(back.hasPrefix(issuer + "/federation/glewlwyd/callback?"), "\(back)")
        var page = try await browser.send(client, String(back.dropFirst(issuer.count)))
        if page.status == .ok, page.body.contains(#"name="decision""#) {
            page = try await browser.submit(client, page, to: "/consent", [("decision", "allow")])
        }
        #expect(page.redirect?.base == appRedirect)
        #expect(page.redirect?.query["state"] == "app-state")
        let code = try #require(page.redirect?.query["code"])
        let redeem = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", appRedirect), ("client_id", "app"),
            ("code_verifier", pkce.verifier),
        ]
        let tokens = try await client.executeRequest(
            uri: "/token", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
            body: ByteBuffer(string: FormEncoding.encode(redeem)))
        #expect(tokens.status == .ok)
        let body = try JSONValue(parsing: Data(String(buffer: tokens.body).utf8))
        let idToken = try UnverifiedJWT(try #require(body.objectValue?["id_token"]?.stringValue))
        let subject = try #require(idToken.subject)
        let identities = try await provider.store.identities(userID: subject)
        #expect(identities.map(\.kind) == ["oidc:\(glewlwyd.issuer)"], "the user is linked to their glewlwyd identity")
    }
}

/// What `upstream_glewlwyd.py` prints.
private struct UpstreamBrowserSummary: Decodable {
    let pages: [FlowPagesSummary.CheckedPage]
    let buttons: [String]
    let upstreamPage: String
    let code: String
    let stateMatches: Bool
    let iss: String?
    let callbacks: Int

    enum CodingKeys: String, CodingKey {
        case pages, buttons, code, iss, callbacks
        case upstreamPage = "upstream_page"
        case stateMatches = "state_matches"
    }
}

/// What `native_upstream_glewlwyd.py` prints.
private struct NativeUpstreamSummary: Decodable {
    let provider: String
    let upstreamPage: String
    let stateMatches: Bool
    let iss: String?
    let callbacks: Int
    let consentAsked: Bool
    let code: String

    enum CodingKeys: String, CodingKey {
        case provider, iss, callbacks, code
        case upstreamPage = "upstream_page"
        case stateMatches = "state_matches"
        case consentAsked = "consent_asked"
    }
}
