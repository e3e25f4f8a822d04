import Foundation
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("limen-server events")
struct EventsCommandTests {
    @Test("prints the events a command-line change recorded as JSON lines, filtered by type, without the password")
    func printsEvents() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let password = "analytical engine 1843"
        let add = try await Subprocess.capture(
            try serverExecutable(),
            arguments: ["users", "add", "--data-dir", directory.path, "--email", "ada@example.com"],
            input: Data((password + "\n").utf8))
        #expect(add.status == 0)

        let all = try await Subprocess.capture(
            try serverExecutable(), arguments: ["events", "--data-dir", directory.path])
        #expect(all.status == 0)
        let lines = all.outputText.split(separator: "\n").map { line in
            (try? JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8))) ?? [:]
        }
        #expect(Set(lines.compactMap { $0["type"]?.stringValue }) == ["user.created", "admin.user_created"])
        #expect(lines.allSatisfy { $0["actor"]?.stringValue == "command_line" })
        #expect(!all.outputText.contains(password))

        let filtered = try await Subprocess.capture(
            try serverExecutable(), arguments: ["events", "--data-dir", directory.path, "--type", "user.created"])
        #expect(filtered.outputText.split(separator: "\n").count == 1)
        let refused = try await Subprocess.capture(
            try serverExecutable(), arguments: ["events", "--data-dir", directory.path, "--type", "user.hacked"])
        #expect(refused.status != 0)
    }

    @Test("--follow prints an event written after it started, read from its output as it comes")
    func follows() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        func addUser(_ email: String) async throws {
            let add = try await Subprocess.capture(
                try serverExecutable(),
                arguments: ["users", "add", "--data-dir", directory.path, "--email", email],
                input: Data("analytical engine 1843\n".utf8))
            #expect(add.status == 0)
        }
        try await addUser("ada@example.com")
        let arguments = ["events", "--data-dir", directory.path, "--type", "user.created", "--follow"]
        try await Subprocess.withService(
            try serverExecutable(), arguments: arguments, readyWhen: "user.created", on: .standardOutput
        ) { follower, first in
            let firstUser = try #require(
                (try? JSONDecoder().decode([String: JSONValue].self, from: Data(first.utf8)))?["user"]?.stringValue)
            try await addUser("grace@example.com")
            let next = try await follower.firstLine(on: .standardOutput, timeout: .seconds(120)) {
                $0.contains("user.created") && !$0.contains(firstUser)
            }
            let event = try JSONDecoder().decode([String: JSONValue].self, from: Data(next.utf8))
            #expect(event["actor"]?.stringValue == "command_line")
            #expect(event["user"]?.stringValue?.isEmpty == false)
            #expect(!next.contains("grace@example.com") && !next.contains("analytical engine"))
        }
    }

    @Test("keys rotate records key.rotated for each new key, with its kid and algorithm")
    func keyRotation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let rotate = try await Subprocess.capture(
            try serverExecutable(), arguments: ["keys", "rotate", "--data-dir", directory.path])
        #expect(rotate.status == 0)
        let events = try await Subprocess.capture(
            try serverExecutable(), arguments: ["events", "--data-dir", directory.path, "--type", "key.rotated"])
        let details = events.outputText.split(separator: "\n").compactMap { line in
            (try? JSONDecoder().decode([String: JSONValue].self, from: Data(line.utf8)))?["details"]?.objectValue
        }
        #expect(Set(details.compactMap { $0["algorithm"]?.stringValue }) == ["ES256", "RS256"])
        for kid in details.compactMap({ $0["kid"]?.stringValue }) { #expect(rotate.outputText.contains(kid)) }
    }
}
