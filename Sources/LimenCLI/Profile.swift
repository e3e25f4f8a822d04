import Foundation
import Limen
import LimenOIDC
import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The settings one profile keeps in `<dir>/<profile>.json`: no tokens and no client secret (the secret lives in
/// the profile's encrypted store under ``Profile/clientSecretKey``).
struct ProfileSettings: Codable, Equatable {
    var issuer: URL
    var clientID: String
    var scopes: [String]
    /// The pins of the issuer's host (`limen login --pin`), checked on every request of the profile; `nil` for none.
    var pins: [String]?
    /// A PEM file of roots trusted besides the system's (`limen login --ca-file`), as an absolute path.
    var caFile: String?

    enum CodingKeys: String, CodingKey {
        case issuer
        case clientID = "client_id"
        case scopes
        case pins
        case caFile = "ca_file"
    }
}

/// A named profile: its settings file and its encrypted store in the credentials directory.
struct Profile {
    /// The profile used when `--profile` is absent.
    static let defaultName = "default"
    /// The encrypted store key that holds a confidential client's secret.
    static let clientSecretKey = "client_secret"

    /// The profile's name, also the encrypted store's namespace.
    let name: String
    /// The credentials directory.
    let directory: URL
    /// The profile's encrypted store: session tokens and the client secret.
    let store: EncryptedFileStore

    /// Opens profile `name` in the credentials directory this environment selects.
    init(name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        guard (1...64).contains(name.utf8.count),
            name.utf8.allSatisfy({ $0.isASCIIIdentifierByte })
        else {
            throw CLIFailure(
                code: "cli.invalid_profile",
                message: "The profile name must be 1–64 ASCII letters, digits, '-' or '_'.")
        }
        self.name = name
        self.directory = Self.credentialsDirectory(environment: environment)
        do throws(StorageError) {
            self.store = try EncryptedFileStore(directory: directory, namespace: name)
        } catch {
            throw CLIFailure(LimenError.storage(error))
        }
    }

    /// `$LIMEN_CONFIG_DIR`, else `$XDG_CONFIG_HOME/limen`, else `~/.config/limen`.
    static func credentialsDirectory(environment: [String: String]) -> URL {
        if let explicit = environment["LIMEN_CONFIG_DIR"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit, isDirectory: true)
        }
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("limen", isDirectory: true)
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".config/limen", isDirectory: true)
    }

    /// `<dir>/<profile>.json`.
    var settingsFile: URL { directory.appendingPathComponent("\(name).json") }

    /// The saved settings, or `nil` when this profile never signed in.
    func loadSettings() throws -> ProfileSettings? {
        guard FileManager.default.fileExists(atPath: settingsFile.path) else { return nil }
        do {
            return try JSONDecoder().decode(ProfileSettings.self, from: Data(contentsOf: settingsFile))
        } catch {
            throw CLIFailure(LimenError.configuration(.unreadableFile(settingsFile.path)))
        }
    }

    /// Saves `settings` (mode 0600, replaced atomically) and the client secret (encrypted; removed when `nil`).
    func save(_ settings: ProfileSettings, clientSecret: String?) async throws {
        do throws(StorageError) {
            if let clientSecret {
                try await store.write(Data(clientSecret.utf8), for: Self.clientSecretKey)
            } else {
                try await store.delete(Self.clientSecretKey)
            }
        } catch {
            throw CLIFailure(LimenError.storage(error))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try writePrivately(try encoder.encode(settings), to: settingsFile)
    }

    /// The stored client secret, if the profile has one.
    func loadClientSecret() async throws -> String? {
        do throws(StorageError) {
            return try await store.read(Self.clientSecretKey).map { String(decoding: $0, as: UTF8.self) }
        } catch {
            throw CLIFailure(LimenError.storage(error))
        }
    }

    /// A client for `settings` whose session lives in this profile's encrypted store (with `redirectURI` for a flow),
    /// sending through the transport the settings' pins and roots ask for.
    func client(settings: ProfileSettings, clientSecret: String?, redirectURI: URL? = nil) throws -> AuthClient {
        var logger = Logger(label: "limen.cli") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = CLILogging.level()
        let connection: (transport: (any HTTPTransport)?, pinning: CertificatePinning)
        do throws(ConfigurationError) {
            connection = try settings.connection()
        } catch {
            throw CLIFailure(LimenError.configuration(error))
        }
        let configuration = Configuration(
            issuer: settings.issuer,
            clientID: settings.clientID,
            redirectURI: redirectURI,
            scopes: settings.scopes,
            clientSecret: clientSecret,
            namespace: name,
            store: store,
            transport: connection.transport,
            pinning: connection.pinning,
            logger: logger
        )
        return AuthClient(configuration: configuration)
    }

    /// The client for the saved settings (with `redirectURI`, for the flows it starts); fails with `not_signed_in` when
    /// the profile has none.
    func savedClient(redirectURI: URL? = nil) async throws -> AuthClient {
        guard let settings = try loadSettings() else { throw CLIFailure.notSignedIn }
        let client = try client(
            settings: settings, clientSecret: try await loadClientSecret(), redirectURI: redirectURI)
        if let error = await client.restore() { throw CLIFailure(error) }
        return client
    }
}

/// Writes `data` to `url` with mode 0600 through a temporary file and a rename.
private func writePrivately(_ data: Data, to url: URL) throws {
    let temporary = url.deletingLastPathComponent()
        .appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
    let failure = CLIFailure(
        code: "storage.io", message: "Could not write the profile settings to \(url.path).")
    guard
        FileManager.default.createFile(
            atPath: temporary.path, contents: nil, attributes: [.posixPermissions: 0o600])
    else { throw failure }
    do {
        guard chmod(temporary.path, 0o600) == 0 else { throw failure }
        let handle = try FileHandle(forWritingTo: temporary)
        defer { try? handle.close() }
        try handle.write(contentsOf: data)
        try handle.synchronize()
        guard rename(temporary.path, url.path) == 0 else { throw failure }
    } catch {
        try? FileManager.default.removeItem(at: temporary)
        throw failure
    }
}

extension UInt8 {
    fileprivate var isASCIIIdentifierByte: Bool {
        (0x30...0x39).contains(self) || (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self)
            || self == 0x2D || self == 0x5F
    }
}
