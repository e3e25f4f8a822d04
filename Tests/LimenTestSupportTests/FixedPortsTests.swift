import LimenTestSupport
import Testing

@Suite("FixedPorts")
struct FixedPortsTests {
    @Test("a held port is not handed out again until its holder ends; with every port held the call fails")
    func holdsUntilTheEnd() async throws {
        let first = try FreePort.find()
        var second = try FreePort.find()
        while second == first { second = try FreePort.find() }
        let ports = [first, second]
        try await FixedPorts.withOne(of: ports) { outer in
            #expect(outer == first)
            try await FixedPorts.withOne(of: ports) { inner in
                #expect(inner == second)
                await #expect(throws: FixedPorts.AllTaken.self) {
                    try await FixedPorts.withOne(of: ports) { _ in }
                }
            }
            try await FixedPorts.withOne(of: ports) { again in #expect(again == second, "released when it ended") }
        }
    }
}
