import Foundation

/// Runs `body` with a fresh, empty directory that is removed afterwards in every path.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appending(component: "limen-storage-tests-\(UUID().uuidString)", directoryHint: .isDirectory)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

/// The permission bits of the file at `url`, e.g. `0o600`.
func permissions(of url: URL) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: url.path(percentEncoded: false))
    return (attributes[.posixPermissions] as? Int ?? -1) & 0o777
}

/// Sets the permission bits of the file at `url`.
func setPermissions(_ mode: Int, of url: URL) throws {
    try FileManager.default.setAttributes(
        [.posixPermissions: mode], ofItemAtPath: url.path(percentEncoded: false))
}

/// Replaces the contents of the file at `url`, keeping it private (`0600`).
func overwrite(_ url: URL, with bytes: Data) throws {
    try bytes.write(to: url)
    try setPermissions(0o600, of: url)
}

/// The names in `directory`, hidden files included, sorted.
func fileNames(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path(percentEncoded: false))
        .sorted()
}

/// An ordered record of what concurrent bodies did, for asserting on ordering without sleeping.
actor EventLog {
    private(set) var events: [String] = []

    func record(_ event: String) {
        events.append(event)
    }
}
