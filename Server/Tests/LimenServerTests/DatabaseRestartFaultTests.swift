import Foundation
import HTTPTypes
import LimenTestSupport
import Testing

@testable import LimenServerStorage

/// Why ``DatabaseRestartFaultTests`` cannot run here (nginx, initdb or the binary missing), or `nil`; always `nil` with
/// `LIMEN_REQUIRE_PEERS=1`.
private let restartUnavailableReason = ScaleCluster.unavailableReason(database: PostgresCluster.unavailableReason)

/// Issue 25 §1.2 with a real restart: the PostgreSQL cluster under two nodes behind nginx is stopped (`pg_ctl stop -m
/// fast`) under load and started again ~3 s later. ``DatabaseOutageTests`` cut the shared server off behind a proxy.
@Suite(
    "The database restarts under load: 503 while it is away, back within 5 s of its return, nothing lost, no node down",
    .enabled(if: restartUnavailableReason == nil, Comment(rawValue: restartUnavailableReason ?? "")),
    .timeLimit(.minutes(3))  // against a hang only: the test takes under a minute
)
struct DatabaseRestartFaultTests {
    /// Refresh chains and sign-in workers running at once.
    private static let (chains, signInWorkers) = (8, 2)

    @Test("pg_ctl stop -m fast under refreshes and native sign-ins through nginx, then pg_ctl start 3 s later")
    func databaseRestartedUnderLoad() async throws {
        try await withPostgresCluster { database in
            try await withScaleCluster(adminURL: database.adminURL, nodeArguments: ClusterLoad.nodeArguments) {
                cluster in
                try await Self.restart(database, under: cluster)
            }
        }
    }

    private static func restart(_ database: PostgresCluster, under cluster: ScaleCluster) async throws {
        for node in cluster.nodes {
            let banner = await node.banner
            #expect(banner.contains("PostgreSQL 127.0.0.1:\(database.port)/"), "not on the test's cluster: \(banner)")
        }
        try await ClusterLoad.signUp(1 + signInWorkers, in: cluster.store)
        let load = ClusterLoad(port: cluster.proxyPort)
        let firstTokens = try await load.signIns(chains)

        let (times, chains) = try await load.run(chains: firstTokens, signInWorkers: signInWorkers) {
            try await load.wait("both nodes to serve the load") { outcomes in
                cluster.nodePorts.allSatisfy { port in
                    outcomes.filter { $0.succeeded && $0.upstream == "127.0.0.1:\(port)" }.count >= 20
                }
            }
            let stopping = ContinuousClock.now
            try await database.stop()
            // How long the database stays away: the fault itself, not a wait for something to happen.
            try await Task.sleep(for: .seconds(3))
            try await database.start()
            let returned = ContinuousClock.now
            var reconnected: [Duration] = []
            for node in cluster.nodes { reconnected.append(try await Self.reconnection(of: node, since: returned)) }
            let served = ContinuousClock.now
            try await load.wait("the load to be served again") { outcomes in
                outcomes.filter { $0.sentAt > served && $0.succeeded }.count >= 40
            }
            return (stopping: stopping, returned: returned, reconnected: reconnected, served: served)
        }

        let outcomes = load.outcomes
        let refused = outcomes.filter { $0.status == .serviceUnavailable }
        let wrong = outcomes.filter { !$0.succeeded && $0.status != .serviceUnavailable }
        #expect(wrong.isEmpty, "answers other than 200 and 503 (500, a proxy error, none): \(wrong.map(\.summary))")
        #expect(!refused.isEmpty, "no request was answered while the database was away")
        for answer in refused {
            #expect(
                answer.answeredAt > times.stopping && answer.sentAt < times.served,
                "a 503 while the database was up: \(answer.summary)")
        }
        for node in cluster.nodes {
            #expect(await node.isRunning, "the node on port \(node.port) died (its standard error follows its stop)")
        }
        print(
            """
            DatabaseRestartFaultTests: \(outcomes.count) requests, \(refused.count) answered 503 while the database \
            was away, \(wrong.count) other failures; the nodes answered /healthz again \(times.reconnected) after \
            the database's return (\(times.returned - times.stopping) after the stop began)
            """)
        try await load.expectEveryChainGoesOn(chains, store: cluster.store)
    }

    /// How long after `returned` the node's `/healthz` (a query on its pool) answers 200; a test failure after 5 s.
    private static func reconnection(of node: ScaleNode, since returned: ContinuousClock.Instant) async throws
        -> Duration
    {
        while true {
            let page = try await livePage(port: node.port, "/healthz")
            let took = ContinuousClock.now - returned
            if page.status == .ok { return took }
            #expect(page.status == .serviceUnavailable, "\(page.status) \(page.body)")
            try #require(took < .seconds(5), "the node on port \(node.port) did not reconnect within 5 s")
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
