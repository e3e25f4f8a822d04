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
    /// A pinned host is not a bare host name such as `id.example.com`: it is empty, or has a scheme, port, path or
    /// wildcard (see ``PinnedHost``).
    case invalidPinnedHost(String)
    /// A host has fewer than two distinct pins (`count`): a backup key's pin is required, so that replacing the
    /// server's key does not lock every installed copy of the app out.
    case tooFewPins(host: String, count: Int)
    /// A pin is not base64, after an optional `sha256/` prefix (see ``SPKIPin``).
    case pinNotBase64(String)
    /// A pin decodes to `bytes` bytes instead of a SHA-256 digest's 32.
    case pinWrongLength(String, bytes: Int)
    /// The same host appears twice in one ``CertificatePinning``.
    case duplicatePinnedHost(String)
    /// Keys are pinned for `host`, but the configured transport cannot see the certificates servers present
    /// (URLSession on Linux); requests to the host are refused rather than sent unpinned.
    case pinningUnavailable(host: String)

    /// A stable, machine-readable identifier.
    public var code: String {
        switch self {
        case .missingKey: "configuration.missing_key"
        case .invalidValue: "configuration.invalid_value"
        case .unreadableFile: "configuration.unreadable_file"
        case .incompleteSharing: "configuration.incomplete_sharing"
        case .invalidPinnedHost: "configuration.invalid_pinned_host"
        case .tooFewPins: "configuration.too_few_pins"
        case .pinNotBase64: "configuration.pin_not_base64"
        case .pinWrongLength: "configuration.pin_wrong_length"
        case .duplicatePinnedHost: "configuration.duplicate_pinned_host"
        case .pinningUnavailable: "configuration.pinning_unavailable"
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
        case .invalidPinnedHost(let host):
            "The pinned host \"\(host)\" is not a host name alone (such as id.example.com, without scheme, port, path "
                + "or wildcard)."
        case .tooFewPins(let host, let count):
            "\(host) has \(count) distinct pin\(count == 1 ? "" : "s"); at least two are required, one of them a "
                + "backup key kept offline, so that replacing the server's key does not lock the app out."
        case .pinNotBase64(let pin):
            "The pin \"\(pin)\" is not base64 (a SHA-256 digest of a SubjectPublicKeyInfo, optionally after sha256/)."
        case .pinWrongLength(let pin, let bytes):
            "The pin \"\(pin)\" decodes to \(bytes) bytes; a SHA-256 digest has 32."
        case .duplicatePinnedHost(let host): "The host \(host) is pinned twice."
        case .pinningUnavailable(let host):
            "Keys are pinned for \(host), but the HTTP transport cannot check the certificates servers present "
                + "(URLSession on Linux never shows them): requests to it are refused rather than sent unpinned. "
                + "Use a transport that can pin."
        }
    }
}
