import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// The SDK against glewlwyd, a third-party OpenID provider running for real on 127.0.0.1.
@Suite(
    "End to end against glewlwyd",
    .enabled(if: GlewlwydPeer.unavailableReason == nil, "glewlwyd is not installed (Tests/Peers/glewlwyd/install.sh)"),
    .serialized
)
struct GlewlwydEndToEndTests {
    func withPeer(_ body: (GlewlwydPeer) async throws -> Void) async throws {
        try await GlewlwydPeer.with(body)
    }

    func client(for peer: GlewlwydPeer, _ registered: GlewlwydPeer.Client, logs: CapturedLogs = CapturedLogs())
        -> AuthClient
    {
        AuthClient(
            configuration: Configuration(
                issuer: peer.issuer,
                clientID: registered.clientID,
                redirectURI: registered.redirectURIs.first,
                scopes: ["email", "profile"],
                clientSecret: registered.clientSecret,
                store: MemoryStore(),
                logger: logs.logger
            )
        )
    }

    @Test(
        "code + PKCE sign-in, refresh and userinfo work for each signing algorithm",
        arguments: ["RS256", "ES256", "EdDSA"])
    func signIn(alg: String) async throws {
        try await withPeer { peer in
            let registered = try #require(peer.client(alg: alg))
            let logs = CapturedLogs()
            let client = client(for: peer, registered, logs: logs)
            let browser = RecordingUserAgent(base: GlewlwydBrowser(peer: peer))
            let user = try await client.signIn(using: browser)
            let subject = try #require(user.id)
            #expect(!subject.isEmpty)
            #expect(client.state.phase == .signedIn)
            let first = try #require(try await client.validAccessToken())
            let refreshed = try #require(try await client.refresh())
            #expect(refreshed != first)
            let info = try await client.userInfo()
            #expect(info.subject == subject)
            #expect(info.email == peer.user.email)
            #expect(client.state.user.email == peer.user.email)
            let code = try #require(browser.callbacks.first.flatMap { Self.parameter("code", of: $0) })
            let tokens = try #require(await client.currentTokens())
            let secrets = [code, tokens.accessToken, tokens.refreshToken, tokens.idToken, first].compactMap { $0 }
            #expect(!logs.lines.isEmpty)
            #expect(logs.lines.allSatisfy { line in secrets.allSatisfy { !line.contains($0) } })
        }
    }

    @Test("a confidential client's sign-out revokes its refresh token at the provider")
    func revocation() async throws {
        try await withPeer { peer in
            let registered = try #require(peer.client(alg: "RS256", confidential: true))
            let client = client(for: peer, registered)
            try await client.signIn(using: GlewlwydBrowser(peer: peer))
            let refreshToken = try #require(await client.currentTokens()?.refreshToken)
            let result = await client.signOut(revoke: true)
            #expect(result.revocationError == nil)
            #expect(client.state.phase == .signedOut)
            let metadata = try await ProviderDiscovery.fetch(issuer: peer.issuer, transport: URLSessionTransport())
            let tokens = TokenClient(
                metadata: metadata,
                authentication: client.configuration.clientAuthentication,
                transport: URLSessionTransport()
            )
            await #expect(throws: OIDCError.self) { try await tokens.refresh(refreshToken) }
        }
    }

    @Test("the device grant signs in once the user approves the code")
    func deviceGrant() async throws {
        try await withPeer { peer in
            let registered = try #require(peer.client(alg: "ES256"))
            let client = client(for: peer, registered)
            let browser = GlewlwydBrowser(peer: peer)
            let user = try await client.signInWithDeviceCode { authorization in
                try? await browser.approveDevice(userCode: authorization.userCode)
            }
            #expect(user.id?.isEmpty == false)
            #expect(client.state.phase == .signedIn)
            #expect(try await client.validAccessToken() != nil)
        }
    }

    @Test("a code issued to another client is refused and the user stays signed out")
    func codeForAnotherClient() async throws {
        try await withPeer { peer in
            let registered = try #require(peer.client(alg: "RS256"))
            let other = try #require(peer.client(alg: "ES256"))
            let client = client(for: peer, other)
            let misdirected = RewritingUserAgent(
                base: GlewlwydBrowser(peer: peer),
                clientID: registered.clientID,
                from: other.clientID
            )
            let error = await #expect(throws: LimenError.self) { try await client.signIn(using: misdirected) }
            #expect(error?.code == "oauth.invalid_code")  // glewlwyd's word for a code of another client
            #expect(client.state.phase == .signedOut)
            #expect(await client.currentTokens() == nil)
        }
    }

    @Test("the provider's ID token is refused for any other audience")
    func audienceChecked() async throws {
        try await withPeer { peer in
            let registered = try #require(peer.client(alg: "ES256"))
            let client = client(for: peer, registered)
            try await client.signIn(using: GlewlwydBrowser(peer: peer))
            let idToken = try #require(await client.currentTokens()?.idToken)
            let metadata = try await ProviderDiscovery.fetch(issuer: peer.issuer, transport: URLSessionTransport())
            let keys = JWKSCache(jwksURI: try #require(metadata.jwksURI), transport: URLSessionTransport())
            let validator = IDTokenValidator(issuer: metadata.issuer, clientID: "someone-else", keys: keys)
            await #expect(throws: IDTokenValidationError.audienceMismatch) { try await validator.validate(idToken) }
        }
    }
}

extension GlewlwydEndToEndTests {
    static func parameter(_ name: String, of url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }
}

/// Remembers every redirect the browser brought back, so a test can look for the code in the logs.
final class RecordingUserAgent: UserAgent {
    let base: GlewlwydBrowser
    private let recorded = Locked<[URL]>([])

    init(base: GlewlwydBrowser) { self.base = base }

    var callbacks: [URL] { recorded.withLock { $0 } }

    func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
        let redirect = try await base.authorize(url: url, callback: callback)
        recorded.withLock { $0.append(redirect) }
        return redirect
    }
}

/// Swaps the client ID in the authorization URL, so the code is issued to another client than the one redeeming it.
struct RewritingUserAgent: UserAgent {
    let base: GlewlwydBrowser
    let clientID: String
    let from: String

    func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
        let rewritten = URL(
            string: url.absoluteString.replacingOccurrences(of: "client_id=\(from)", with: "client_id=\(clientID)"))!
        return try await base.authorize(url: rewritten, callback: callback)
    }
}
