import Foundation

/// A file outside the Keychain naming this installation of the app: iOS deletes it with the app, but keeps the app's
/// Keychain items, so a Keychain item recording another installation (or none on disk) is left from before a delete
/// and reinstall.
///
/// The file `<directory>/<name>.installation` (mode `0600`, directory `0700`) holds a random identifier, created once
/// and never changed. Put it where every process sharing the Keychain items can read it: the app's
/// application-support directory, or the app-group container when the app shares its session with extensions.
struct InstallationMarker: Sendable {
    /// The marker file's path.
    let path: String
    private let directoryPath: String

    /// A marker named `<name>.installation` in `directory`.
    init(directory: URL, name: String) {
        directoryPath = ProcessLock.trimmingTrailingSlash(directory.path(percentEncoded: false))
        path = "\(directoryPath)/\(name).installation"
    }

    /// The identifier on disk, or `nil` when there is no marker; fails when the file exists but cannot be read (for
    /// example a data-protected file before the first unlock), so that a failure never passes for a reinstall.
    func read() throws(StorageError) -> String? {
        try PrivateFile.contents(at: path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The identifier on disk, created first when there is none (when two processes create it at once, both get the
    /// one published first).
    func readOrCreate() throws(StorageError) -> String {
        if let existing = try read() { return existing }
        try PrivateFile.makeDirectory(directoryPath)
        let fresh = UUID().uuidString
        let temporary = "\(directoryPath)/.\(UUID().uuidString).tmp"
        if try PrivateFile.publish(Array(fresh.utf8), at: path, through: temporary) { return fresh }
        guard let published = try read() else { throw .io(path: path, errno: ENOENT) }
        return published
    }
}
