import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Synchronization
import Testing

@testable import LimenServerCore

/// Load through a ``ScaleCluster``'s proxy while a fault test breaks something: refresh chains (each refreshing its
/// latest token again and again) and native sign-ins (flow start, credentials, code redemption), every request
/// recorded with when it was sent and what answered it.
///
/// A failed refresh is retried with the same token (a rotation whose answer was lost is answered again within the
/// reuse grace window); a failed sign-in starts over. After a failure a worker waits 50 ms before its next request, as
/// a client backing off would, so that a refusing cluster is not hammered.
final class ClusterLoad: Sendable {
    /// One request and what it got.
    struct Outcome: Sendable {
        /// What the request was.
        enum Request: Sendable {
            /// A refresh of a chain's latest token.
            case refresh
            /// A step of a native sign-in.
            case signInStep
        }

        let request: Request
        /// When it was sent.
        let sentAt: ContinuousClock.Instant
        /// When its answer came (or the client gave up).
        let answeredAt: ContinuousClock.Instant
        /// The answer's status, or `nil` when none came (the client's connect or read time-out, a reset connection).
        let status: HTTPTypes.HTTPResponse.Status?
        /// The nodes nginx passed it to (its ``NginxProxy/upstreamHeader``), when it answered.
        let upstream: String?
        /// The answer's body, or the client's error when none came, for messages.
        let detail: String

        /// Whether it was answered `200 OK`.
        var succeeded: Bool { status == .ok }

        /// One line for the test log.
        var summary: String {
            let body = detail.split(whereSeparator: \.isNewline).joined(separator: " ")
            return
                "\(request) \(status.map { "\($0.code)" } ?? "no answer") via \(upstream ?? "?"): \(body.prefix(120))"
        }
    }

    /// The email of the sign-in worker or chain owner `index`; each has the password ``password``.
    static func email(_ index: Int) -> String { "load-\(index)@example.com" }
    /// The load's users' password.
    static let password = SignInFixture.password

    /// What the nodes need to take the load from one address (nginx's): no rate limits.
    static let nodeArguments = [
        "--post-rate-limit", "off", "--sign-in-rate-limit", "off", "--authorize-rate-limit", "off",
    ]

    /// nginx's header naming the node that answered.
    private static let upstreamField = HTTPField.Name(NginxProxy.upstreamHeader)!

    /// nginx's port.
    let port: Int
    private let state = Mutex<(outcomes: [Outcome], isStopped: Bool)>(([], false))

    /// Load through the proxy on 127.0.0.1:`port`.
    init(port: Int) {
        self.port = port
    }

    /// Every request so far.
    var outcomes: [Outcome] { state.withLock { $0.outcomes } }

    /// Makes the accounts ``email(_:)`` 0..<`count` in `store` (with a cheap password hash).
    static func signUp(_ count: Int, in store: PostgresStore) async throws {
        let accounts = Accounts(store: store, hasher: PasswordHasher(parameters: .testing), now: Date.init)
        for index in 0..<count {
            _ = try await accounts.signUp(
                email: email(index), password: password, name: nil, origin: RequestOrigin())
        }
    }

    /// Signs user 0 in `count` times, one after another, before the load starts: the chains' first refresh tokens.
    func signIns(_ count: Int) async throws -> [String] {
        var tokens: [String] = []
        for _ in 0..<count {
            tokens.append(
                try #require(await signIn(email: Self.email(0)), "a sign-in failed: \(outcomes.last?.summary ?? "")"))
        }
        return tokens
    }

    /// Drives a refresh chain from each of `chains` and `signInWorkers` sign-in loops (as users 1...) until `fault`
    /// returns, then stops and waits for them; `fault`'s value and each chain's tokens in the order it got them (its
    /// first one included, each once: a retry that got the same answer adds nothing).
    func run<Value: Sendable>(
        chains: [String],
        signInWorkers: Int,
        isolation: isolated (any Actor)? = #isolation,
        fault: () async throws -> Value
    ) async throws -> (value: Value, chains: [[String]]) {
        try await withThrowingTaskGroup(of: (Int, [String])?.self) { group in
            for (index, token) in chains.enumerated() {
                group.addTask { (index, await self.refreshChain(from: token)) }
            }
            for worker in 0..<signInWorkers {
                group.addTask {
                    while !self.isStopped {
                        if await self.signIn(email: Self.email(worker + 1)) == nil { await self.backOff() }
                    }
                    return nil
                }
            }
            let value: Value
            do {
                value = try await fault()
            } catch {
                stop()
                throw error
            }
            stop()
            var tokens = chains.map { [$0] }
            for try await case (let index, let chain)? in group { tokens[index] = chain }
            return (value, tokens)
        }
    }

    /// Polls the outcomes every 20 ms until `condition` holds, for at most `timeout`; the time it took, or a test
    /// failure saying what was awaited.
    @discardableResult
    func wait(
        _ what: String, timeout: Duration = .seconds(30), until condition: ([Outcome]) -> Bool
    ) async throws -> Duration {
        let start = ContinuousClock.now
        while !condition(outcomes) {
            try #require(ContinuousClock.now - start < timeout, "waited \(timeout) for \(what)")
            try await Task.sleep(for: .milliseconds(20))
        }
        return ContinuousClock.now - start
    }

    /// Refreshes each chain's latest token once more (every session survived the fault), then checks in `store` that
    /// each chain is one chain holding exactly the tokens its client got, and that no grant has two live tokens.
    func expectEveryChainGoesOn(_ chains: [[String]], store: PostgresStore) async throws {
        for chain in chains {
            let page = try await StoredSessions.refresh(chain[chain.endIndex - 1], clientID: "limen-cli", port: port)
            #expect(page.status == .ok, "a session was lost: \(page.body)")
            try await RefreshChainLedger.expectOneChain(from: chain[0], received: chain.count + 1, in: store)
        }
        #expect(try await RefreshChainLedger.forkedGrants(in: store) == 0, "a refresh token got two successors")
    }

    // MARK: Workers

    private var isStopped: Bool { state.withLock { $0.isStopped } }

    private func stop() {
        state.withLock { $0.isStopped = true }
    }

    private func backOff() async {
        try? await Task.sleep(for: .milliseconds(50))
    }

    /// Refreshes the chain's latest token until the load stops; every token it got, `first` included.
    private func refreshChain(from first: String) async -> [String] {
        var tokens = [first]
        while !isStopped {
            let latest = tokens[tokens.endIndex - 1]
            let page = await send(.refresh) {
                try await StoredSessions.refresh(latest, clientID: "limen-cli", port: self.port)
            }
            if let next = page?.json["refresh_token"]?.stringValue, page?.status == .ok {
                tokens.append(next)
            } else {
                await backOff()
            }
        }
        return tokens
    }

    /// One native sign-in of `email` with ``password`` through the proxy (flow start, credentials, code redemption):
    /// its refresh token, or `nil` when a step failed.
    private func signIn(email: String) async -> String? {
        let start = { try await liveFlowStart(port: self.port, scope: "openid offline_access") }
        guard let interaction = await send(.signInStep, start)?.json["interaction"]?.stringValue else { return nil }
        let values: [String: JSONValue] = ["email": .string(email), "password": .string(Self.password)]
        let submit = {
            try await liveFlowSubmission(
                port: self.port, interaction: interaction, node: "credentials", action: "submit", values: values)
        }
        guard let code = await send(.signInStep, submit)?.json["node"]?.objectValue?["code"]?.stringValue else {
            return nil
        }
        let form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", SignInFixture.cliRedirect),
            ("client_id", "limen-cli"), ("code_verifier", PKCE.fixture.verifier),
        ]
        let tokens = await send(.signInStep) { try await liveForm(port: self.port, "/token", form) }
        return tokens?.status == .ok ? tokens?.json["refresh_token"]?.stringValue : nil
    }

    /// Sends one request and records its outcome; the answer, if one came.
    private func send(_ request: Outcome.Request, _ operation: () async throws -> Page) async -> Page? {
        let sentAt = ContinuousClock.now
        let outcome: Outcome
        let page: Page?
        do {
            page = try await operation()
            outcome = Outcome(
                request: request, sentAt: sentAt, answeredAt: .now, status: page?.status,
                upstream: page?.headers[Self.upstreamField], detail: page?.body ?? "")
        } catch {
            page = nil
            outcome = Outcome(
                request: request, sentAt: sentAt, answeredAt: .now, status: nil, upstream: nil,
                detail: String(describing: error))
        }
        state.withLock { $0.outcomes.append(outcome) }
        return page
    }
}
