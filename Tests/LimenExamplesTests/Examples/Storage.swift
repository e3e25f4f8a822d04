import Foundation
import Limen

/// The storage article's default-store example.
func storageDefault() {
    // snippet: storage-default
    let location = DefaultStore.current
    print(location.usesKeychain ? "the Keychain" : "encrypted files in \(location.directory.path)")
    // end snippet
}

/// The storage article's explicit-store example.
func storageExplicit(issuer: URL) throws {
    // snippet: storage-explicit
    // A session that must not outlive the process (tests, one-shot tools):
    let memory = Configuration(issuer: issuer, clientID: "my-tool", store: MemoryStore())

    // Encrypted files in a directory of your choice, with their own namespace:
    let directory = URL(filePath: "/var/lib/my-daemon", directoryHint: .isDirectory)
    let files = Configuration(
        issuer: issuer,
        clientID: "my-daemon",
        store: try EncryptedFileStore(directory: directory, namespace: "daemon")
    )
    // snippet.hide
    _ = (memory, files)
    // end snippet
}
