import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// The `IDP` collector end to end: the `limen-server` binary offering glewlwyd (a third-party OpenID provider) as an
/// upstream provider, and an app signing in through it with `IdpCollector.authorize(using:)`.
@Suite(
    "IDP collectors against Limen Server and glewlwyd",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)"),
    .enabled(if: GlewlwydPeer.unavailableReason == nil, "glewlwyd is not installed")
)
struct LimenServerIdpTests {
    @Test("the sign-in flow's IDP collector signs in through glewlwyd in the web session; the user has that identity")
    func signInThroughGlewlwyd() async throws {
        try await GlewlwydPeer.with { glewlwyd in
            let upstream = try #require(glewlwyd.clients.first { $0.clientSecret != nil })
            let configuration = """
                identity_providers:
                  - id: glewlwyd
                    display_name: Glewlwyd
                    issuer: \(glewlwyd.issuer.absoluteString)
                    client_id: \(upstream.clientID)
                    client_secret: \(upstream.clientSecret ?? "")
                """
            // glewlwyd knows Limen's callback on these ports only; other suites bind them too.
            try await FixedPorts.withOne(of: Array(47111...47115)) { port in
                try await LimenServerPeer.with(configuration: configuration, port: port) { server in
                    let client = AuthClient(
                        configuration: Configuration(
                            issuer: server.issuer, clientID: "limen-cli",
                            redirectURI: try #require(URL(string: "http://127.0.0.1/callback")),
                            scopes: ["profile", "email", "offline_access"], store: MemoryStore()))
                    guard case .continue(let step) = await client.startFlow("sign-in") else {
                        Issue.record("the sign-in flow did not start")
                        return
                    }
                    let idp = try #require(step.collectors.first { $0 is IdpCollector } as? IdpCollector)
                    #expect(idp.provider == "glewlwyd" && idp.label == "Continue with Glewlwyd")
                    let browser = BrokeredBrowser(upstream: GlewlwydBrowser(peer: glewlwyd), issuer: server.issuer)
                    guard case .success(let success) = await idp.authorize(using: browser) else {
                        Issue.record("signing in through glewlwyd did not succeed")
                        return
                    }
                    #expect(success.userType == .new)
                    #expect(client.state.phase == .signedIn)
                    let identities = try await client.identities()
                    #expect(identities.map(\.kind.rawValue) == ["oidc:\(glewlwyd.issuer.absoluteString)"])
                }
            }
        }
    }
}

/// A browser signing in at an upstream provider through Limen: the upstream browser signs in there and is sent to
/// Limen's callback, which this one opens and follows to the app's redirect URI, as a web session does.
private struct BrokeredBrowser: UserAgent {
    let upstream: GlewlwydBrowser
    let issuer: URL

    func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
        let limenCallback = issuer.appendingPathComponent("federation/glewlwyd/callback")
        let atLimen = try await upstream.authorize(url: url, callback: CallbackMatcher(redirectURI: limenCallback))
        let answer: LimenOIDC.HTTPResponse
        do {
            answer = try await URLSessionTransport().send(HTTPRequest(url: atLimen))
        } catch {
            throw .presentationFailed("Limen's callback: \(error)")
        }
        guard answer.status == 302, let location = answer.header("Location").flatMap(URL.init(string:)),
            callback.matches(location)
        else { throw .presentationFailed("Limen's callback answered \(answer.status), not the app's redirect") }
        return location
    }
}
