import Dispatch
import Foundation
import Limen
import Testing

@Suite("Work kept off the cooperative pool")
struct OffPoolTests {
    @Test(
        "more blocking jobs than the pool has threads still let a pool task run, which releases them",
        .timeLimit(.minutes(1))
    )
    func blockingJobsDoNotStarveThePool() async throws {
        // On the cooperative pool these jobs would hold every one of its threads (one per core) in wait(), so the
        // task that signals them could never run: the test would hang until its time limit.
        let jobs = ProcessInfo.processInfo.activeProcessorCount * 2 + 1
        let gate = DispatchSemaphore(value: 0)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for job in 0..<jobs {
                group.addTask {
                    try await OffPool.run { () throws(CancellationError) -> Int in
                        gate.wait()
                        return job
                    }
                }
            }
            group.addTask {
                for _ in 0..<jobs { gate.signal() }
                return -1
            }
            var finished = 0
            for try await _ in group { finished += 1 }
            #expect(finished == jobs + 1)
        }
    }

    @Test("a thrown error comes back typed")
    func typedError() async {
        await #expect(throws: EncryptionError.wrongPassphrase) {
            try await OffPool.run { () throws(EncryptionError) -> Int in throw .wrongPassphrase }
        }
    }
}
