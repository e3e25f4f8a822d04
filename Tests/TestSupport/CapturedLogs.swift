import Foundation
import LimenTestSupport
import Logging

/// Every message, with its metadata, that one logger wrote at trace level and above (not bootstrapped globally).
public final class CapturedLogs: Sendable {
    private let captured = Locked<[String]>([])

    /// Creates an empty capture.
    public init() {}

    /// A logger writing here (not bootstrapped globally).
    public var logger: Logger {
        var logger = Logger(label: "limen.test") { [captured] label in CapturingHandler(label: label, sink: captured) }
        logger.logLevel = .trace
        return logger
    }

    /// Each captured entry: label, level, message and metadata, as one line.
    public var lines: [String] { captured.withLock { $0 } }
}

private struct CapturingHandler: LogHandler {
    let label: String
    let sink: Locked<[String]>
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let line = "\(label) \(event.level) \(event.message) \(merged) \(event.error.map { "\($0)" } ?? "")"
        sink.withLock { $0.append(line) }
    }
}
