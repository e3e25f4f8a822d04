import Foundation
import Logging

/// Diagnostics on standard error: only errors unless `LIMEN_LOG_LEVEL` asks for more (`trace`, `debug`, `info`,
/// `notice`, `warning`, `error`, `critical`).
enum CLILogging {
    /// The level `LIMEN_LOG_LEVEL` selects; `error` when it is unset or not a level name.
    static func level(environment: [String: String] = ProcessInfo.processInfo.environment) -> Logger.Level {
        environment["LIMEN_LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0.lowercased()) } ?? .error
    }

    /// Sends every swift-log logger (the SDK's included) to standard error at ``level(environment:)``.
    static func bootstrap() {
        let level = level()
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
