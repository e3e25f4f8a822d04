import Foundation
import Testing

@testable import LimenTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// ``ProcessStart`` keeps the count of open descriptors away from the values at which Foundation's listing of
/// `/proc/self/fd` reads past glibc's buffer while a process starts.
@Suite("Starting a process out of the risky descriptor counts")
struct ProcessStartTests {
    @Test(
        "the counts whose last /proc/self/fd entry ends a full 1,365-entry buffer are risky; others are not",
        arguments: [
            (100, false), (1323, false), (1324, true), (1353, true), (1363, true), (1364, false), (2688, false),
            (2689, true), (2728, true), (2729, false),
        ])
    func risky(descriptors: Int, expected: Bool) {
        #expect(ProcessStart.isRisky(openDescriptors: descriptors) == expected)
    }

    #if os(Linux)
        @Test("a process started while the count is risky starts, and the padding is closed again")
        func startsFromRiskyCount() throws {
            func count() throws -> Int { try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count }
            var held: [Int32] = []
            defer { for descriptor in held { close(descriptor) } }
            // Open descriptors until the count is risky (other tests open and close theirs meanwhile: try a while).
            for _ in 0..<3000 where !ProcessStart.isRisky(openDescriptors: try count()) {
                let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
                try #require(descriptor >= 0)
                held.append(descriptor)
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/true")
            try ProcessStart.run(process)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
    #endif
}
