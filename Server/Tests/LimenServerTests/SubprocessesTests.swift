import Foundation
import Testing

@Suite("Reading a subprocess's output in tests")
struct SubprocessesTests {
    @Test("reading stops at the time-out while the writer stays silent with its end open")
    func readingTimesOutOnSilence() async throws {
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data("starting\n".utf8))

        let text = await readOutput(of: pipe.fileHandleForReading, until: "ready", timeout: .milliseconds(200))

        #expect(text.hasSuffix("(timed out)"))
        #expect(!text.contains("ready"))
        try pipe.fileHandleForWriting.close()  // ends the reading thread
    }

    @Test("reading returns once the line holding the marker is complete")
    func readingStopsAtMarker() async throws {
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data("starting\nready on port 1\n".utf8))

        let text = await readOutput(of: pipe.fileHandleForReading, until: "ready", timeout: .seconds(60))

        #expect(text == "starting\nready on port 1\n")
        try pipe.fileHandleForWriting.close()
    }
}
