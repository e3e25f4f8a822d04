import Foundation
import LimenOIDC
import LimenTestSupport
import Testing

@testable import Limen

@Suite("Refresher")
struct RefresherTests {
    static let issuer = URL(string: "https://id.example.com")!
    static let start = Date(timeIntervalSince1970: 1_767_225_600)

    /// A set for `alice` whose access token expires `expiresIn` seconds after ``start``.
    static func tokens(_ accessToken: String, refreshToken: String = "rt", expiresIn: TimeInterval) -> TokenSet {
        TokenSet(
            accessToken: accessToken, refreshToken: refreshToken, idToken: nil,
            expiresAt: start.addingTimeInterval(expiresIn), scope: "openid", subject: "alice",
            claims: ["sub": .string("alice")])
    }

    /// The set this process holds when a test starts: its access token is within the leeway of expiry.
    static let old = tokens("at-old", expiresIn: 10)

    @Test("a fresh set another client stored is adopted without a token request")
    func adoptsStoredResult() async throws {
        let fixture = try await Fixture(storing: Self.tokens("at-other", expiresIn: 3600))
        let endpoint = TokenEndpoint { _ in HTTPResponse(status: 500) }
        let session = FakeSession(tokens: Self.old, endpoint: endpoint)

        #expect(try await fixture.refresher.refresh(session, margin: 60) == "at-other")
        #expect(await session.tokens?.accessToken == "at-other")
        #expect(endpoint.requests == 0)
    }

    @Test("while another client's claim holds, the refresher waits and adopts that client's result")
    func waitsForAnotherClientsClaim() async throws {
        // The widget finishes its refresh while this client waits for the first time.
        let fixture = try await Fixture(storing: Self.old) { sessions in
            try await sessions.save(Self.tokens("at-widget", refreshToken: "rt-widget", expiresIn: 3600))
            await sessions.releaseClaim()
        }
        let claim = RefreshClaim(owner: "widget", expiresAt: Self.start.addingTimeInterval(60))
        #expect(await fixture.sessions.record(claim))
        let endpoint = TokenEndpoint { _ in HTTPResponse(status: 500) }
        let session = FakeSession(tokens: Self.old, endpoint: endpoint)

        #expect(try await fixture.refresher.refresh(session, margin: 60) == "at-widget")
        #expect(fixture.clock.recorded == [RefreshClaim.pollInterval])
        #expect(endpoint.requests == 0)
        #expect(await session.tokens?.refreshToken == "rt-widget")
    }

    @Test("a claim left by a process that is gone (killed mid-refresh) holds nobody back: the refresh runs at once")
    func claimOfAGoneProcessLapses() async throws {
        let fixture = try await Fixture(storing: Self.old)
        let claim = RefreshClaim(
            owner: "killed-app", expiresAt: Self.start.addingTimeInterval(60), process: try Self.endedProcess())
        #expect(await fixture.sessions.record(claim))
        let endpoint = TokenEndpoint { _ in Self.refreshedAnswer }
        let session = FakeSession(tokens: Self.old, endpoint: endpoint)

        #expect(try await fixture.refresher.refresh(session, margin: 60) == "at-new")
        #expect(fixture.clock.recorded.isEmpty)
        #expect(endpoint.requests == 1)
        #expect(await fixture.sessions.claim() == nil)
    }

    @Test("a claim of another client in a live process, or in this one, still makes the refresher wait")
    func claimOfALiveProcessHolds() {
        let now = Self.start
        let live = [ProcessInfo.processInfo.processIdentifier, 1]
        for process in live {
            let claim = RefreshClaim(owner: "widget", expiresAt: now.addingTimeInterval(60), process: process)
            #expect(claim.blocks("this-client", at: now), "process \(process)")
            #expect(!claim.blocks("widget", at: now), "its own claim never blocks a client")
            #expect(!claim.blocks("this-client", at: now.addingTimeInterval(61)), "an expired claim lapses")
        }
    }

    @Test("the claim a refresh records names this process")
    func claimNamesThisProcess() async throws {
        let recorded = Locked<RefreshClaim?>(nil)
        let fixture = try await Fixture(storing: Self.old)
        let endpoint = TokenEndpoint { [sessions = fixture.sessions] _ in
            let claim = await sessions.claim()
            recorded.withLock { $0 = claim }
            return Self.refreshedAnswer
        }
        let session = FakeSession(tokens: Self.old, endpoint: endpoint)

        #expect(try await fixture.refresher.refresh(session, margin: 60) == "at-new")
        let claim = try #require(recorded.withLock { $0 })
        #expect(claim.owner == "this-client")
        #expect(claim.process == ProcessInfo.processInfo.processIdentifier)
    }

    /// A token endpoint's answer to a refresh: a new access token for an hour.
    static let refreshedAnswer = HTTPResponse(
        status: 200, headers: ["Content-Type": "application/json"],
        body: Data(#"{"access_token":"at-new","token_type":"Bearer","expires_in":3600}"#.utf8))

    /// The identifier of a process that ran and has been reaped, so none has it (until the system gives it again).
    static func endedProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exit 0"]
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    @Test("a refreshed ID token naming another subject is refused; the session is kept and the claim released")
    func refusesAnotherSubject() async throws {
        let fixture = try await Fixture(storing: Self.old)
        let endpoint = TokenEndpoint { _ in
            HTTPResponse(
                status: 200, headers: ["Content-Type": "application/json"],
                body: Data(#"{"access_token":"at-new","token_type":"Bearer","expires_in":3600,"id_token":"t"}"#.utf8))
        }
        let session = FakeSession(tokens: Self.old, endpoint: endpoint, idTokenSubject: "mallory")

        let refusal = LimenError.protocolViolation(
            .invalidResponse(endpoint: "token", reason: "the refreshed ID token names another subject"))
        await #expect(throws: refusal) { try await fixture.refresher.refresh(session, margin: 60) }
        #expect(endpoint.requests == 1)
        #expect(await session.tokens == Self.old)
        #expect(try await fixture.sessions.load() == Self.old)
        #expect(await fixture.sessions.claim() == nil)
        #expect(fixture.emitted.withLock { $0 }.isEmpty)
    }

    @Test("a refusal without an OAuth body ends the session as expired and emits sessionExpired")
    func emptyRefusalExpires() async throws {
        let fixture = try await Fixture(storing: Self.old)
        let endpoint = TokenEndpoint { _ in HTTPResponse(status: 400) }
        let session = FakeSession(tokens: Self.old, endpoint: endpoint)

        #expect(try await fixture.refresher.refresh(session, margin: 60) == nil)
        #expect(await session.ended == [.expired])
        #expect(fixture.emitted.withLock { $0 } == [.sessionExpired])
        #expect(await fixture.sessions.claim() == nil)
    }
}

/// A store holding a session, and a refresher over it whose clock runs `onSleep` on every wait.
private struct Fixture {
    let sessions: SessionStore
    let clock: TestClock
    let refresher: Refresher
    /// The events the refresher emitted.
    let emitted = Locked<[AuthEvent]>([])

    init(storing stored: TokenSet, onSleep: @escaping @Sendable (SessionStore) async throws -> Void = { _ in })
        async throws
    {
        let store = MemoryStore()
        let sessions = SessionStore(store: store, namespace: "default")
        try await sessions.save(stored)
        let clock = TestClock { _ in try await onSleep(sessions) }
        let configuration = Configuration(
            issuer: RefresherTests.issuer, clientID: "app", store: store, now: { RefresherTests.start }, clock: clock)
        let events = EventBus()
        _ = events.addHandler { [emitted] event in emitted.withLock { $0.append(event) } }
        self.sessions = sessions
        self.clock = clock
        self.refresher = Refresher(
            sessions: sessions, events: events, configuration: configuration, instanceID: "this-client")
    }
}

/// A token endpoint answering with `answer`, counting its requests.
private final class TokenEndpoint: HTTPTransport {
    private let answer: @Sendable (HTTPRequest) async -> HTTPResponse
    private let count = Locked(0)

    init(answer: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.answer = answer
    }

    var requests: Int { count.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        count.withLock { $0 += 1 }
        return await answer(request)
    }
}

/// A session held in memory, whose token endpoint is `endpoint` and whose ID tokens name `idTokenSubject`.
private actor FakeSession: RefreshableSession {
    private(set) var tokens: TokenSet?
    private(set) var generation = 0
    let hasUnsavedSession = false
    private(set) var ended: [AuthState.Phase] = []
    private let endpoint: TokenEndpoint
    private let idTokenSubject: String

    init(tokens: TokenSet, endpoint: TokenEndpoint, idTokenSubject: String = "alice") {
        self.tokens = tokens
        self.endpoint = endpoint
        self.idTokenSubject = idTokenSubject
    }

    func writeUnsavedSession() async -> LimenError? { nil }

    func adoptStored(_ stored: TokenSet) {
        tokens = stored
    }

    func adoptRefreshed(_ next: TokenSet) async {
        tokens = next
    }

    func endSession(phase: AuthState.Phase) async {
        generation += 1
        tokens = nil
        ended.append(phase)
    }

    func tokenClient() async throws(LimenError) -> TokenClient {
        let metadata = ProviderMetadata(
            issuer: RefresherTests.issuer.absoluteString,
            authorizationEndpoint: RefresherTests.issuer.appendingPathComponent("authorize"),
            tokenEndpoint: RefresherTests.issuer.appendingPathComponent("token"))
        return TokenClient(metadata: metadata, authentication: .none(clientID: "app"), transport: endpoint)
    }

    func validateIDToken(_ idToken: String, nonce: String?, maxAge: TimeInterval?, accessToken: String)
        async throws(LimenError) -> IDTokenClaims
    {
        do {
            return try IDTokenClaims(claims: [
                "iss": .string(RefresherTests.issuer.absoluteString), "sub": .string(idTokenSubject),
                "aud": .string("app"), "exp": .number(2_000_000_000), "iat": .number(1_767_225_600),
            ])
        } catch {
            throw .idToken(error)
        }
    }
}
