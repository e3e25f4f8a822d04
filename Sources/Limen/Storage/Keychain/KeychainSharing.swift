import Foundation

/// The rule a `KeychainStore` shared with other processes must follow, checked when it is created (on every
/// platform, so that it is tested on Linux).
enum KeychainSharing {
    /// Refuses an access group without a shared directory: the app and its extensions would each keep their own
    /// refresh lock (and spend one rotating refresh token twice) and never hear of each other's changes.
    /// - Throws: ``ConfigurationError/incompleteSharing(missing:)`` naming `sharedDirectory`.
    static func validate(accessGroup: String?, sharedDirectory: URL?) throws(ConfigurationError) {
        if accessGroup != nil, sharedDirectory == nil {
            throw .incompleteSharing(missing: "sharedDirectory")
        }
    }

    /// The name this process's own reinstall record goes by: the bundle identifier, else the process name.
    static var processName: String {
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }
}
