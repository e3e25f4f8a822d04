import ArgumentParser
import Foundation
import LimenServer
import LimenServerCore
import LimenServerStorage

/// `limen-server events [--type …] [--user …] [--client …] [--limit n] [--follow]`: the security events as JSON lines,
/// oldest of the page first, as `GET /admin/events` shows each; `--follow` then prints new ones as they are written.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Print the security events (the audit trail) as JSON lines.",
        discussion: "The newest --limit events matching the filters, oldest first; --follow keeps printing new ones."
    )

    @OptionGroup var data: DataOptions

    @Option(help: "Only events of this type, such as user.signed_in.")
    var type: String?

    @Option(help: "Only events concerning this user (subject).")
    var user: String?

    @Option(help: "Only events concerning this client.")
    var client: String?

    @Option(help: "How many of the newest events to print first (1–\(AdminEventQuery.maximumPageSize)).")
    var limit: Int = AdminEventQuery.defaultPageSize

    @Flag(help: "Keep printing new events as they are written, until interrupted.")
    var follow = false

    /// How often `--follow` looks for new events.
    static let pollInterval = Duration.seconds(1)

    func validate() throws {
        if let type, SecurityEventType(rawValue: type) == nil {
            throw ValidationError("--type must be an event type, such as user.signed_in")
        }
        guard (1...AdminEventQuery.maximumPageSize).contains(limit) else {
            throw ValidationError("--limit must be from 1 to \(AdminEventQuery.maximumPageSize)")
        }
    }

    func run() async throws {
        let filter = SecurityEventFilter(type: type, user: user, client: client)
        try await ServerComposition.withStore(configuration: try data.configuration()) { store in
            var printed = try await store.securityEvents(filter, limit: limit).reversed().map { $0 }
            Self.print(printed)
            while follow {
                try await Task.sleep(for: Self.pollInterval)
                var since = filter
                since.since = printed.last?.time
                let seen = Set(printed.map(\.id))
                let new = try await store.securityEvents(since, limit: AdminEventQuery.maximumPageSize)
                    .reversed().filter { !seen.contains($0.id) }
                Self.print(new)
                // Only the events of the newest second can come again.
                printed = (printed + new).filter { $0.time >= (new.last ?? printed.last)?.time ?? .distantPast }
            }
        }
    }

    /// Prints `events`, one JSON object a line.
    static func print(_ events: [SecurityEventRecord]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for event in events {
            guard let line = try? encoder.encode(AdminEventResource(event)) else { continue }
            // Written at once, not through print's buffer: into a pipe a follower reads each event when it comes.
            FileHandle.standardOutput.write(line + Data("\n".utf8))
        }
    }
}
