import Foundation
import Testing

@testable import Limen

@Suite("The default store")
struct DefaultStoreTests {
    static let home = URL(filePath: "/home/ada", directoryHint: .isDirectory)

    static func resolve(
        _ environment: [String: String] = [:], bundle: String? = nil, process: String = "notes", apple: Bool = false
    ) -> DefaultStore {
        DefaultStore.resolve(
            environment: environment, homeDirectory: home, bundleIdentifier: bundle, processName: process,
            isApplePlatform: apple)
    }

    @Test(
        "off Apple platforms the encrypted file store lives under $XDG_DATA_HOME or ~/.local/share",
        arguments: [
            ([:], "/home/ada/.local/share/notes/limen/"),
            (["XDG_DATA_HOME": "/data/ada"], "/data/ada/notes/limen/"),
            (["XDG_DATA_HOME": ""], "/home/ada/.local/share/notes/limen/"),
            // The XDG Base Directory specification: a relative path is invalid and ignored.
            (["XDG_DATA_HOME": "relative/share"], "/home/ada/.local/share/notes/limen/"),
        ]
    )
    func linux(environment: [String: String], expected: String) {
        let location = Self.resolve(environment)
        #expect(location.directory.path(percentEncoded: false) == expected)
        #expect(location.usesKeychain == false)
    }

    @Test("an Apple app uses the Keychain, with its marker in Application Support under the bundle identifier")
    func appleApp() {
        let location = Self.resolve(["XDG_DATA_HOME": "/data/ada"], bundle: "com.example.notes", apple: true)
        #expect(location.usesKeychain)
        #expect(
            location.directory.path(percentEncoded: false)
                == "/home/ada/Library/Application Support/com.example.notes/limen/")
    }

    @Test("an Apple command-line tool, outside any bundle, uses an encrypted file store in Application Support")
    func appleTool() {
        let location = Self.resolve(process: "limen", apple: true)
        #expect(location.usesKeychain == false)
        #expect(location.directory.path(percentEncoded: false) == "/home/ada/Library/Application Support/limen/limen/")
    }

    @Test(
        "a name that is not one path component is made into one",
        arguments: [
            ("a/b", "a_b"), ("", "limen-app"), (".", "limen-app"), ("..", "limen-app"), ("com.example", "com.example"),
        ])
    func directoryName(name: String, expected: String) {
        #expect(DefaultStore.directoryName(name) == expected)
    }

    @Test("off Apple platforms the default store is an encrypted file store in that directory, not memory")
    func madeStore() throws {
        let location = Self.resolve(["XDG_DATA_HOME": "/data/ada"])
        let store = try #require(location.makeStore() as? EncryptedFileStore)
        #expect(store.directory == location.directory)
        #expect(store.namespace == DefaultStore.namespace)
    }

    @Test("a configuration without a store gets the default store, not a MemoryStore")
    func configurationDefault() throws {
        let configuration = Configuration(issuer: URL(filePath: "/"), clientID: "app")
        #expect(!(configuration.store is MemoryStore))
        let store = try #require(configuration.store as? EncryptedFileStore)
        #expect(store.directory == DefaultStore.current.directory)
    }
}
