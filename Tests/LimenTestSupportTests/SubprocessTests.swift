import Foundation
import LimenTestSupport
import Testing

/// A program that writes nothing and runs until it is stopped.
private let silentProgram = (executable: URL(fileURLWithPath: "/usr/bin/env"), arguments: ["sleep", "3600"])

/// A program that writes `text` on standard error and exits 0.
private func writing(_ text: String) -> (executable: URL, arguments: [String]) {
    (URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '\(text)' >&2"])
}

private struct BodyFailed: Error {}

@Suite("Running a subprocess in tests")
struct SubprocessTests {
    @Test("reading a line from a child that never writes fails with a time-out, on the injected clock")
    func silentChildTimesOut() async throws {
        let clock = TestClock()
        let running = try await Subprocess.withRunning(silentProgram.executable, arguments: silentProgram.arguments) {
            running in
            await #expect {
                _ = try await running.firstLine(on: .standardOutput, timeout: .seconds(30), clock: clock)
            } throws: { error in
                guard case SubprocessError.timedOut(let program, _, let after, _) = error else { return false }
                return program == "env" && after == .seconds(30)
            }
            return running
        }
        #expect(clock.recorded == [.seconds(30)])
        #expect(!running.isRunning, "the with… helper stopped the child")
    }

    @Test("waiting for a child that never exits fails with a time-out, on the injected clock")
    func silentChildWaitTimesOut() async throws {
        let running = try await Subprocess.withRunning(silentProgram.executable, arguments: silentProgram.arguments) {
            running in
            await #expect {
                _ = try await running.wait(timeout: .seconds(5), clock: TestClock())
            } throws: { error in
                guard case SubprocessError.timedOut(_, let waitingFor, _, _) = error else { return false }
                return waitingFor == "its exit"
            }
            return running
        }
        #expect(!running.isRunning)
    }

    @Test("a line is returned once written, and a stream that ends first is reported as ended")
    func linesAndEnd() async throws {
        let program = writing("starting\\nready on port 1\\n")
        try await Subprocess.withRunning(program.executable, arguments: program.arguments) { running in
            #expect(try await running.firstLine { $0.hasPrefix("ready") } == "ready on port 1")
            await #expect {
                _ = try await running.firstLine { $0 == "never" }
            } throws: { error in
                guard case SubprocessError.ended = error else { return false }
                return true
            }
            let result = try await running.wait()
            #expect(result.status == 0 && !result.endedBySignal)
            #expect(result.standardError == "starting\nready on port 1\n")
        }
    }

    @Test("the child is killed when the with… body throws, and the body's error comes out")
    func stoppedWhenBodyThrows() async throws {
        let started = Locked<RunningProcess?>(nil)
        await #expect(throws: BodyFailed.self) {
            try await Subprocess.withRunning(silentProgram.executable, arguments: silentProgram.arguments) {
                running in
                started.withLock { $0 = running }
                throw BodyFailed()
            }
        }
        let running = try #require(started.withLock { $0 })
        #expect(!running.isRunning)
        let result = try await running.wait(timeout: .zero)
        #expect(result.endedBySignal && result.status == SIGTERM, "ended by the stop's SIGTERM, not by itself")
    }

    @Test("the child is stopped when the task running the with… helper is cancelled")
    func stoppedWhenCancelled() async throws {
        let started = Locked<RunningProcess?>(nil)
        let reading = Gate()
        let task = Task {
            try await Subprocess.withRunning(silentProgram.executable, arguments: silentProgram.arguments) {
                running in
                started.withLock { $0 = running }
                await reading.open()
                _ = try await running.firstLine(on: .standardOutput)
            }
        }
        await reading.wait()
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        let running = try #require(started.withLock { $0 })
        #expect(!running.isRunning)
    }

    @Test("capture kills a child that outlives its deadline, and run reports a non-zero exit with standard error")
    func captureAndRun() async throws {
        await #expect {
            _ = try await Subprocess.capture(
                silentProgram.executable, arguments: silentProgram.arguments, timeout: .milliseconds(1))
        } throws: { error in
            guard case SubprocessError.timedOut = error else { return false }
            return true
        }
        await #expect(throws: SubprocessError.failed(program: "sh", status: 3, standardError: "no\n")) {
            _ = try await Subprocess.run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "echo no >&2; exit 3"])
        }
        let echoed = try await Subprocess.run(
            URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", "cat"], input: Data("piped\n".utf8))
        #expect(String(decoding: echoed, as: UTF8.self) == "piped\n")
    }
}
