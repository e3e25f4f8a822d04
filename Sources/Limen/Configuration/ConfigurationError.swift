import Foundation

/// Why a configuration was refused.
public enum ConfigurationError: Error, Sendable, Equatable {
    /// A required key is absent from a configuration file.
    case missingKey(String)
    /// A key has a value of the wrong type or form.
    case invalidValue(key: String, reason: String)
    /// The configuration file could not be read or parsed.
    case unreadableFile(String)
    /// A store shared with other processes (a Keychain access group) was configured without what keeps them from
    /// spoiling each other's session: the named setting (`sharedDirectory`, for the lock every refresh takes and the
    /// reinstall marker they share). Use `Configuration.appGroup(_:onSessionChange:)`, which sets them together.
    case incompleteSharing(missing: String)

    /// A stable, machine-readable identifier.
    public var code: String {
        switch self {
        case .missingKey: "configuration.missing_key"
        case .invalidValue: "configuration.invalid_value"
        case .unreadableFile: "configuration.unreadable_file"
        case .incompleteSharing: "configuration.incomplete_sharing"
        }
    }
}

extension ConfigurationError: LocalizedError {
    /// A human-readable description naming the key.
    public var errorDescription: String? {
        switch self {
        case .missingKey(let key): "The configuration lacks the required key \"\(key)\"."
        case .invalidValue(let key, let reason): "The configuration key \"\(key)\" is invalid: \(reason)."
        case .unreadableFile(let path): "The configuration file \(path) could not be read."
        case .incompleteSharing(let missing):
            "The Keychain access group is shared with other processes, but \(missing) is missing: without it the app "
                + "and its extensions would refresh one session at once and wipe each other's items. Use "
                + "Configuration.appGroup(_:onSessionChange:), which sets the access group, the shared directory and "
                + "the lock together."
        }
    }
}
