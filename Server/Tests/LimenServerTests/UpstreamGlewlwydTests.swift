import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenTestSupport
import LimenWire
import NIOCore
import Testing

@testable import LimenServer

@Suite("Upstream provider end to end: an app signs a user in through Limen through glewlwyd")
struct UpstreamGlewlwydTests {
    /// The app's redirect URI (a native app's loopback listener).
    private static let appRedirect = "http://127.0.0.1:53999/callback"

    @Test(
        "the sign-in page's button leads to glewlwyd and back; the app redeems the code for the linked user",
        .enabled(if: GlewlwydUpstream.unavailableReason == nil, "glewlwyd is not installed")
    )
    func signInThroughGlewlwyd() async throws {
        try await GlewlwydUpstream.with { glewlwyd in
            // glewlwyd knows Limen's callback on its fixed redirect ports only.
            let port = try #require((47111...47115).first(where: FreePort.isFree), "a free port among 47111-47115")
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            var configuration = ServerConfiguration.testing(directory: directory, port: port)
            configuration.identityProviders = [
                IdentityProvider(
                    id: "glewlwyd", displayName: "Glewlwyd", issuer: glewlwyd.issuer, clientID: glewlwyd.clientID,
                    clientSecret: glewlwyd.clientSecret)
            ]
            let provider = try await Provider.bootstrap(configuration: configuration)
            do {
                _ = try await ChromiumPeer.registerClient(in: provider, id: "app")
                let app = Application(
                    router: LimenServerApplication.router(provider: provider),
                    configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: port)))
                try await app.test(.live) { client in
                    try await Self.signIn(client: client, provider: provider, glewlwyd: glewlwyd)
                }
            } catch {
                await provider.store.close()
                throw error
            }
            await provider.store.close()
        }
    }

    private static func signIn(
        client: some TestClientProtocol,
        provider: Provider,
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
