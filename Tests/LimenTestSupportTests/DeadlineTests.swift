import LimenTestSupport
import Testing

@Suite("Deadlines, gates and free ports")
struct DeadlineTests {
    @Test("an operation that ends first gives its value; one that never ends gives nil when the clock's time is up")
    func deadline() async throws {
        #expect(try await withDeadline(.seconds(60)) { 42 } == 42)
        let clock = TestClock()
        let never = Gate()
        let value: Int? = try await withDeadline(.seconds(7), clock: clock) {
            await never.wait()
            return 1
        }
        #expect(value == nil)
        #expect(clock.recorded == [.seconds(7)])
    }

    @Test("a cancelled wait on a closed gate returns, so a gate never opened cannot hold a task forever")
    func cancelledGateWait() async {
        let gate = Gate()
        let waiting = Task { await gate.wait() }
        waiting.cancel()
        await waiting.value
        let opened = Gate()
        await opened.open()
        await opened.wait()
    }

    @Test("a port found free can be bound, and is below the ephemeral range")
    func freePort() throws {
        let port = try FreePort.find()
        #expect(FreePort.candidates.contains(port))
        #expect(FreePort.isFree(port))
        #expect(!FreePort.isFree(70_000))
    }
}
