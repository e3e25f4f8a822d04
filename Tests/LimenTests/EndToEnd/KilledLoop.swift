import Foundation
import LimenTestSupport
import TestSupport
import Testing

/// Where one round kills: after which progress line of the first process, how long after it, and whether a second
/// process runs beside it over the same store (then it is killed too, once it has refreshed after the first's death).
struct KillPlan: Sendable {
    /// Kill the first process after its `afterRefresh`-th `refreshed` line (0: without waiting for one).
    var afterRefresh: Int
    /// Then wait this long: only *where* the kill lands, never a synchronisation.
    var delay: Duration
    /// Whether a second process shares the store, and the delay before its own kill.
    var second: Duration?

    /// Rounds with `kills` kills in all, drawn from `seed`: every third round runs two processes.
    static func schedule(kills: Int, seed: UInt64) -> [KillPlan] {
        var random = SeededGenerator(seed: seed)
        var plans: [KillPlan] = []
        var planned = 0
        while planned < kills {
            let delay = Duration.microseconds(Int.random(in: 0..<30_000, using: &random))
            let together = plans.count % 3 == 2 && planned + 2 <= kills
            let second = Duration.microseconds(Int.random(in: 0..<30_000, using: &random))
            plans.append(
                KillPlan(
                    afterRefresh: Int.random(in: 0...3, using: &random), delay: delay,
                    second: together ? second : nil))
            planned += together ? 2 : 1
        }
        return plans
    }
}

/// What the processes of one or more rounds did.
struct KillTally {
    /// Processes started.
    var started = 0
    /// Processes that SIGKILL ended.
    var kills = 0
    /// `refreshed` lines.
    var refreshes = 0
    /// `signed-out` lines.
    var signOuts = 0
    /// `overlap` lines: a refresh request started while another process's was in flight.
    var overlaps = 0
    /// `error` lines.
    var errors: [String] = []

    /// Counts one process's outcome.
    mutating func add(_ outcome: LoopOutcome) {
        started += 1
        kills += outcome.killed ? 1 : 0
        refreshes += outcome.refreshes
        signOuts += outcome.lines.count { $0 == "signed-out" }
        overlaps += outcome.lines.count { $0 == "overlap" }
        errors += outcome.lines.filter { $0.hasPrefix("error") }
    }

    /// Counts every outcome of a round.
    mutating func add(_ outcomes: [LoopOutcome]) {
        for outcome in outcomes { add(outcome) }
    }
}

/// How one `RefreshLoop` process ended: its progress lines, and whether SIGKILL ended it.
struct LoopOutcome: Sendable {
    var lines: [String]
    var killed: Bool

    init(_ result: Subprocess.Result) {
        lines = result.outputText.split(separator: "\n").map(String.init)
        killed = result.endedBySignal
    }

    /// Its `refreshed` lines.
    var refreshes: Int { Self.refreshes(in: lines) }

    /// How many of `lines` say a refresh finished.
    static func refreshes(in lines: some Sequence<some StringProtocol>) -> Int {
        lines.count { $0.hasPrefix("refreshed ") }
    }

    /// How many lines of `output` say a refresh finished.
    static func refreshes(in output: String) -> Int {
        refreshes(in: output.split(separator: "\n"))
    }
}

/// Runs `RefreshLoop` processes over one store and kills them as a ``KillPlan`` says.
struct KilledLoop: Sendable {
    /// The `RefreshLoop` executable.
    let program: URL
    /// Its arguments: issuer, store directory, in-flight probe file.
    let arguments: [String]

    /// How long a process may take to reach a progress line: far more than a refresh takes, far less than the 60 s a
    /// refresh claim left by a killed process would hold the others back for.
    static let lineTimeout: Duration = .seconds(20)

    /// One round: the first process (and the second, beside it) started, killed as `plan` says.
    func run(_ plan: KillPlan) async throws -> [LoopOutcome] {
        try await Subprocess.withRunning(program, arguments: arguments) { first in
            guard let second = plan.second else { return [try await kill(first, after: plan.afterRefresh, plan.delay)] }
            return try await Subprocess.withRunning(program, arguments: arguments) { other in
                let killed = try await kill(first, after: plan.afterRefresh, plan.delay)
                // The survivor must refresh again after the kill, whatever claim the killed process left behind.
                let seen = LoopOutcome.refreshes(in: String(decoding: other.standardOutput, as: UTF8.self))
                return [killed, try await kill(other, after: seen + 1, second)]
            }
        }
    }

    /// A process that refreshes `refreshes` times and exits.
    func runToEnd(refreshes: Int) async throws -> LoopOutcome {
        try await Subprocess.withRunning(program, arguments: arguments + [String(refreshes)]) { process in
            let result = try await process.wait(timeout: Self.lineTimeout)
            #expect(result.status == 0, "\(result.standardError)")
            return LoopOutcome(result)
        }
    }

    /// Waits for `process`'s `refreshes`-th `refreshed` line (or a line saying it stopped), then `delay`, then kills it.
    private func kill(_ process: RunningProcess, after refreshes: Int, _ delay: Duration) async throws -> LoopOutcome {
        if refreshes > 0 {
            let awaited = "refreshed \(refreshes)"
            _ = try await process.firstLine(on: .standardOutput, timeout: Self.lineTimeout) {
                $0 == awaited || $0 == "signed-out" || $0.hasPrefix("error")
            }
        }
        try await Task.sleep(for: delay)
        return LoopOutcome(await process.kill())
    }
}
