import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// App-to-app sign-in against Limen Server: a host app (first party, native, registered as an app-to-app host) signed
/// in through the hosted pages answers a requesting app's authorization request, which reaches it through
/// ``AppToAppUserAgent`` and a test opener playing the system and the host app; the redirect goes back through the
/// requesting client's ``AuthClient/handle(url:)``.
@Suite(
    "App-to-app sign-in against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct LimenServerAppToAppTests {
    static let hostID = "host-app"
    static let requesterID = "requesting-app"
    static let requesterName = "Requesting App"
    static let hostRedirect = "http://127.0.0.1/callback"
    static let requesterRedirect = "https://requesting.example/cb"

    /// The two registrations, as `limen-server clients add` arguments.
    static let clients = [
        [
            "--id", hostID, "--first-party", "--native", "--app2app-host", "--redirect-uri", hostRedirect,
        ],
        ["--id", requesterID, "--name", requesterName, "--native", "--redirect-uri", requesterRedirect],
    ]

    /// What the host app does with the request it gets.
    enum Answer: Sendable {
        case approve, deny
    }

    /// Plays the system and the host app: the link opens the host, which reads the request, answers it, and opens the
    /// redirect it gets, which the system hands to the requesting app (its client's `handle(url:)`).
    struct HostApp: UniversalLinkOpener {
        let host: AuthClient
        let requester: AuthClient
        let answer: Answer
        let requests = Locked<[AppToAppRequest]>([])
        let failures = Locked<[LimenError]>([])

        func openUniversalLink(_ url: URL) async -> Bool {
            do throws(LimenError) {
                let request = try await host.appToAppRequest(for: url)
                requests.withLock { $0.append(request) }
                let redirect = try await answer == .approve ? request.approve() : request.deny()
                _ = await requester.handle(url: redirect)
            } catch {
                failures.withLock { $0.append(error) }
                Task { _ = await requester.handle(url: Self.failed) }
            }
            return true
        }

        /// Where the host app sends the requesting one when it cannot answer (ends the waiting sign-in).
        static let failed = URL(string: "\(LimenServerAppToAppTests.requesterRedirect)?error=server_error")!
    }

    /// A fallback that must not be used: the host app is "installed".
    struct NoBrowser: UserAgent {
        func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
            throw .presentationFailed("the browser fallback was used")
        }
    }

    /// Runs `body` with the server, the host signed in as the test user, and the requesting client.
    func withApps(_ body: (LimenServerPeer, AuthClient, AuthClient) async throws -> Void) async throws {
        try await LimenServerPeer.with(clients: Self.clients) { server in
            let host = AuthClient(
                configuration: Configuration(
                    issuer: server.issuer, clientID: Self.hostID,
                    redirectURI: try #require(URL(string: Self.hostRedirect)),
                    scopes: ["profile", "email", "offline_access"], store: MemoryStore()))
            try await host.signIn(
                using: LimenServerBrowser(email: server.user.email, password: server.user.password),
                options: SignInOptions(loginHint: server.user.email))
            let requester = AuthClient(
                configuration: Configuration(
                    issuer: server.issuer, clientID: Self.requesterID,
                    redirectURI: try #require(URL(string: Self.requesterRedirect)),
                    scopes: ["profile", "email"], store: MemoryStore()))
            try await body(server, host, requester)
        }
    }

    @Test("the host app approves: the requesting app is signed in as the host's user, without a browser")
    func approved() async throws {
        try await withApps { server, host, requester in
            let hostApp = HostApp(host: host, requester: requester, answer: .approve)
            let agent = AppToAppUserAgent(client: requester, opener: hostApp, fallback: NoBrowser())
            let user = try await requester.signIn(using: agent)
            #expect(hostApp.failures.withLock { $0 }.isEmpty)
            #expect(user.id != nil)
            #expect(user.id == host.state.user.id)
            #expect(requester.state.phase == .signedIn)
            #expect(requester.state.user.email == server.user.email)
            let request = try #require(hostApp.requests.withLock { $0 }.first)
            #expect(request.clientID == Self.requesterID)
            #expect(request.clientName == Self.requesterName)
            #expect(request.scopes.contains("openid"))
            let idToken = try #require(await requester.idTokenInfo())
            #expect(idToken.claims.audience.contains(Self.requesterID))
        }
    }

    @Test("the host app denies: the requesting app's sign-in ends in access_denied and nobody is signed in there")
    func denied() async throws {
        try await withApps { _, host, requester in
            let hostApp = HostApp(host: host, requester: requester, answer: .deny)
            let agent = AppToAppUserAgent(client: requester, opener: hostApp, fallback: NoBrowser())
            await #expect {
                try await requester.signIn(using: agent)
            } throws: { error in
                guard case .oauth(let refusal) = error as? LimenError else { return false }
                return refusal.error == .accessDenied
            }
            #expect(hostApp.failures.withLock { $0 }.isEmpty)
            #expect(requester.state.phase == .signedOut)
            #expect(host.state.phase == .signedIn)
        }
    }

    @Test("a request for a fresh sign-in (prompt=login) asks the host to sign in again first")
    func loginRequired() async throws {
        try await withApps { _, host, requester in
            let hostApp = HostApp(host: host, requester: requester, answer: .approve)
            let agent = AppToAppUserAgent(client: requester, opener: hostApp, fallback: NoBrowser())
            await #expect(throws: LimenError.self) {
                try await requester.signIn(using: agent, options: SignInOptions(prompt: ["login"]))
            }
            #expect(hostApp.failures.withLock { $0 } == [.appToApp(.loginRequired)])
            #expect(requester.state.phase == .signedOut)
        }
    }

    @Test("a client not registered as a host may not answer for others")
    func notAHost() async throws {
        try await withApps { server, _, requester in
            let other = AuthClient(
                configuration: Configuration(
                    issuer: server.issuer, clientID: "limen-cli",
                    redirectURI: try #require(URL(string: "http://127.0.0.1/callback")), store: MemoryStore()))
            try await other.signIn(
                using: LimenServerBrowser(email: server.user.email, password: server.user.password),
                options: SignInOptions(loginHint: server.user.email))
            let hostApp = HostApp(host: other, requester: requester, answer: .approve)
            let agent = AppToAppUserAgent(client: requester, opener: hostApp, fallback: NoBrowser())
            await #expect(throws: LimenError.self) { try await requester.signIn(using: agent) }
            let failures = hostApp.failures.withLock { $0 }
            guard case .appToApp(.refused(let refusal))? = failures.first else {
                Issue.record("not refused: \(failures)")
                return
            }
            #expect([401, 403].contains(refusal.httpStatus ?? 0))
        }
    }
}
