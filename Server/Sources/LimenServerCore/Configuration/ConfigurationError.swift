import Foundation

/// A configuration value that cannot be used.
public struct ConfigurationError: Error, Sendable, Equatable, LocalizedError {
    /// The flag or environment variable it came from (`--port`, `LIMEN_PORT`).
    public var key: String
    /// The value given.
    public var value: String
    /// What was expected.
    public var reason: String

    /// A stable code for logs and tests.
    public var code: String { "configuration.invalid_value" }

    /// A human message naming the key.
    public var errorDescription: String? { "Invalid \(key) \"\(value)\": \(reason)" }
}
