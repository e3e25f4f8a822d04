import Foundation

/// Where a ``Configuration`` keeps its session when it is given no store: the platform's secure store.
///
/// - On Apple platforms, inside an app (the main bundle has an identifier): a `KeychainStore`, namespace `app`, with
///   the reinstall check's marker in ``directory`` and a record of it per process (the app's default access group may
///   be shared with its extensions through Keychain Sharing, and each has its own ``directory``).
/// - Elsewhere (Linux, a macOS command-line tool, which the data protection keychain refuses): an
///   ``EncryptedFileStore``, namespace `app`, in ``directory``.
///
/// The data protection keychain needs a signed app with a keychain access group (`errSecMissingEntitlement`, `-34018`,
/// otherwise); a macOS app without one passes an ``EncryptedFileStore`` itself.
///
/// ``directory`` is `<data>/<application>/limen`, where `<data>` is `~/Library/Application Support` on Apple
/// platforms (inside the app's container when it has one) and `$XDG_DATA_HOME` (when set to an absolute path) or
/// `~/.local/share` elsewhere, and `<application>` is the bundle identifier or else the process name.
///
/// ```swift
/// let location = DefaultStore.current
/// print(location.directory.path)  // ~/.local/share/my-tool/limen on Linux
/// let store = location.makeStore()
/// ```
///
/// ``MemoryStore`` is never the default: it loses the session at every launch; pass it explicitly when that is
/// what you want (tests, one-shot processes).
public struct DefaultStore: Sendable, Equatable {
    /// The namespace of the default store; configurations keep their sessions apart by their own namespaces.
    public static let namespace = "app"

    /// The directory of the encrypted file store, and of the reinstall check's marker next to the Keychain.
    public var directory: URL
    /// Whether the session goes to the Keychain rather than to an encrypted file store in ``directory``.
    public var usesKeychain: Bool

    /// The default store location of this process.
    public static var current: DefaultStore {
        #if canImport(Security)
            let isApplePlatform = true
        #else
            let isApplePlatform = false
        #endif
        return resolve(
            environment: ProcessInfo.processInfo.environment,
            homeDirectory: URL(filePath: NSHomeDirectory(), directoryHint: .isDirectory),
            bundleIdentifier: Bundle.main.bundleIdentifier,
            processName: ProcessInfo.processInfo.processName,
            isApplePlatform: isApplePlatform
        )
    }

    /// The location for a process with these surroundings (what ``current`` reads from the system).
    ///
    /// - Parameters:
    ///   - environment: The process environment (`XDG_DATA_HOME` is read off Apple platforms).
    ///   - homeDirectory: The user's (or, on iOS, the app container's) home directory.
    ///   - bundleIdentifier: The main bundle's identifier; `nil` outside an app bundle.
    ///   - processName: The process name, naming the directory when there is no bundle identifier.
    ///   - isApplePlatform: Whether the Keychain and `~/Library/Application Support` exist.
    public static func resolve(
        environment: [String: String],
        homeDirectory: URL,
        bundleIdentifier: String?,
        processName: String,
        isApplePlatform: Bool
    ) -> DefaultStore {
        let data: URL
        if isApplePlatform {
            data = homeDirectory.appending(path: "Library/Application Support", directoryHint: .isDirectory)
        } else if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            data = URL(filePath: xdg, directoryHint: .isDirectory)
        } else {
            data = homeDirectory.appending(path: ".local/share", directoryHint: .isDirectory)
        }
        let application = directoryName(bundleIdentifier ?? processName)
        return DefaultStore(
            directory: data.appending(component: application, directoryHint: .isDirectory)
                .appending(component: "limen", directoryHint: .isDirectory),
            usesKeychain: isApplePlatform && bundleIdentifier != nil
        )
    }

    /// The store at this location.
    public func makeStore() -> any SecureStore {
        #if canImport(Security)
            if usesKeychain {
                return KeychainStore(
                    validNamespace: Self.namespace, markerDirectory: directory,
                    markerProcess: KeychainSharing.processName)
            }
        #endif
        return EncryptedFileStore(directory: directory, validNamespace: Self.namespace)
    }

    /// `name` as one path component: `/` and NUL replaced, and `limen-app` for an empty name, `.` or `..`.
    static func directoryName(_ name: String) -> String {
        let cleaned = String(name.map { $0 == "/" || $0 == "\0" ? "_" : $0 })
        return ["", ".", ".."].contains(cleaned) ? "limen-app" : cleaned
    }
}
