import LimenTestSupport
import Logging

/// Every line a logger writes, with its metadata.
final class RecordedLines: Sendable {
    struct Line: Sendable {
        let message: String
        let metadata: Logger.Metadata
    }

    let lines = Locked<[Line]>([])

    /// A logger writing here.
    var logger: Logger {
        Logger(label: "test.recorded") { _ in Handler(recorded: self) }
    }

    private struct Handler: LogHandler {
        let recorded: RecordedLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let line = Line(message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 })
            recorded.lines.withLock { $0.append(line) }
        }
    }
}

extension RecordedLines {
    /// The first line whose message starts with `prefix`, if any.
    func first(startingWith prefix: String) -> Line? {
        lines.withLock { $0 }.first { $0.message.hasPrefix(prefix) }
    }
}
