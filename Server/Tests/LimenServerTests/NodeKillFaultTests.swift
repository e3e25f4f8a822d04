import Foundation
import HTTPTypes
import LimenTestSupport
import Testing

@testable import LimenServerStorage

/// Issue 25 §1.1: one node of two behind nginx is killed (SIGKILL) under load and started again on its port.
@Suite(
    "A node killed under load: only its requests in flight fail, no session is lost, no token gets two successors",
    .enabled(if: ScaleCluster.unavailableReason == nil, Comment(rawValue: ScaleCluster.unavailableReason ?? "")),
    .timeLimit(.minutes(3))  // against a hang only: the test takes under a minute
)
struct NodeKillFaultTests {
    /// Refresh chains and sign-in workers running at once: each has at most one request in flight.
    private static let (chains, signInWorkers) = (8, 2)

    @Test("kill -9 of one node under refreshes and native sign-ins through nginx, then the node started again")
    func nodeKilledUnderLoad() async throws {
        try await withScaleCluster(nodeArguments: ClusterLoad.nodeArguments) { cluster in
            let proxyDirectives = try String(contentsOfFile: cluster.proxyConfigurationPath, encoding: .utf8)
                .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { $0.hasPrefix("proxy_next_upstream") }
            try #require(proxyDirectives.count == 1, "nginx's configuration names proxy_next_upstream once")
            #expect(!proxyDirectives[0].contains("non_idempotent"), "nginx must not replay a POST on the other node")

            try await ClusterLoad.signUp(1 + Self.signInWorkers, in: cluster.store)
            let load = ClusterLoad(port: cluster.proxyPort)
            let firstTokens = try await load.signIns(Self.chains)
            let killed = cluster.nodes[0]
            let killedAddress = "127.0.0.1:\(killed.port)"

            let (times, chains) = try await load.run(chains: firstTokens, signInWorkers: Self.signInWorkers) {
                try await load.wait("both nodes to serve the load") { outcomes in
                    cluster.nodePorts.allSatisfy { port in
                        outcomes.filter { $0.succeeded && $0.upstream == "127.0.0.1:\(port)" }.count >= 20
                    }
                }
                await killed.kill()
                let killedAt = ContinuousClock.now
                try await load.wait("the other node to serve the load alone") { outcomes in
                    outcomes.filter { $0.sentAt > killedAt && $0.succeeded }.count >= 40
                }
                let restartedAt = ContinuousClock.now
                try await killed.restart()
                let restartTook = ContinuousClock.now - restartedAt
                // nginx tries a failed node again after its fail_timeout (10 s by default).
                let backAfter = try await load.wait("the restarted node to serve through nginx") { outcomes in
                    outcomes.contains { $0.sentAt > restartedAt && $0.succeeded && $0.upstream == killedAddress }
                }
                let lastCount = load.outcomes.count
                try await load.wait("more load on both nodes") { $0.count >= lastCount + 40 }
                return (killedAt: killedAt, restartTook: restartTook, recovery: restartedAt + backAfter - killedAt)
            }

            let outcomes = load.outcomes
            let failures = outcomes.filter { !$0.succeeded }
            for failure in failures {
                #expect(failure.sentAt < times.killedAt, "a request sent after the kill failed: \(failure.summary)")
                #expect(failure.upstream == killedAddress, "a failure not on the killed node: \(failure.summary)")
            }
            #expect(
                failures.count <= Self.chains + Self.signInWorkers,
                "more requests failed than were in flight: \(failures.map(\.summary))")
            print(
                """
                NodeKillFaultTests: \(outcomes.count) requests (\(outcomes.filter { $0.request == .refresh }.count) \
                refreshes, the rest sign-in steps), \(failures.count) failed (\(failures.map(\.summary))); restart \
                took \(times.restartTook), the killed node served through nginx again \(times.recovery) after the kill
                """)
            try await load.expectEveryChainGoesOn(chains, store: cluster.store)
        }
    }
}
