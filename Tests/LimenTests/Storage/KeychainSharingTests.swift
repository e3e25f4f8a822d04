import Foundation
import LimenTestSupport
import Testing

@testable import Limen

/// What a Keychain shared by an app and its extensions must never do, through the twin.
@Suite("A shared Keychain is never wiped by one process's marker", .timeLimit(.minutes(1)))
struct KeychainSharingTests {
    @Test("an app and its widget with their own markers (Keychain Sharing, no shared directory) keep the session")
    func perProcessMarkers() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            let app = try KeychainItemStore.over(
                twin, markerDirectory: directory.appending(component: "app"), markerProcess: "com.example.app")
            try await app.write(Data("tokens".utf8), for: "default.session")
            let widget = try KeychainItemStore.over(
                twin, markerDirectory: directory.appending(component: "widget"),
                markerProcess: "com.example.app.widget")
            #expect(try await widget.read("default.session") == Data("tokens".utf8))
            let relaunchedApp = try KeychainItemStore.over(
                twin, markerDirectory: directory.appending(component: "app"), markerProcess: "com.example.app")
            #expect(try await relaunchedApp.read("default.session") == Data("tokens".utf8))
            #expect(twin.accounts.filter { $0.hasPrefix(".installation") }.count == 2)
        }
    }

    @Test("a reinstall still wipes the session when each process has its own marker")
    func perProcessReinstall() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            let old = try KeychainItemStore.over(
                twin, markerDirectory: directory.appending(component: "old"), markerProcess: "com.example.app")
            try await old.write(Data("tokens".utf8), for: "default.session")
            let reinstalled = try KeychainItemStore.over(
                twin, markerDirectory: directory.appending(component: "new"), markerProcess: "com.example.app")
            #expect(try await reinstalled.read("default.session") == nil)
        }
    }

    @Test(
        "a reinstall keeps field-encryption keys under .keep and removes them under .delete",
        arguments: [EncryptionKeyRetention.keep, .delete])
    func fieldKeysOnReinstall(retention: EncryptionKeyRetention) async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            let keyAccount = "default.field_key.abc"
            let old = try KeychainItemStore.over(twin, markerDirectory: directory.appending(component: "old"))
            try await old.write(Data("tokens".utf8), for: "default.session")
            try await old.write(Data("key".utf8), for: keyAccount)
            let reinstalled = try KeychainItemStore.over(twin, markerDirectory: directory.appending(component: "new"))
            reinstalled.retainFieldKeys(retention)
            #expect(try await reinstalled.read("default.session") == nil)
            #expect(try await reinstalled.read(keyAccount) == (retention == .keep ? Data("key".utf8) : nil))
        }
    }

    @Test("the client hands its encryptionKeyOnSignOut to the store's reinstall check")
    func clientSetsRetention() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            let old = try KeychainItemStore.over(twin, markerDirectory: directory.appending(component: "old"))
            try await old.write(Data("key".utf8), for: "default.field_key.abc")
            let store = try KeychainItemStore.over(twin, markerDirectory: directory.appending(component: "new"))
            var configuration = Configuration(issuer: URL(filePath: "/unused"), clientID: "app", store: store)
            configuration.encryptionKeyOnSignOut = .delete
            _ = AuthClient(configuration: configuration)
            #expect(try await store.read("default.field_key.abc") == nil)
        }
    }

    @Test("an access group without a shared directory is refused, naming what is missing")
    func halfConfiguration() throws {
        #expect(throws: ConfigurationError.incompleteSharing(missing: "sharedDirectory")) {
            try KeychainSharing.validate(accessGroup: "group.com.example", sharedDirectory: nil)
        }
        try KeychainSharing.validate(accessGroup: "group.com.example", sharedDirectory: URL(filePath: "/shared"))
        try KeychainSharing.validate(accessGroup: nil, sharedDirectory: nil)
        let message = ConfigurationError.incompleteSharing(missing: "sharedDirectory").errorDescription ?? ""
        #expect(message.contains("sharedDirectory") && message.contains("appGroup"))
    }

    @Test("errSecMissingEntitlement is reported once as the missing entitlement; the Keychain is not asked again")
    func missingEntitlement() async throws {
        let items = NoEntitlement()
        let store = try KeychainItemStore(
            namespace: "app", items: items, lockDirectory: nil, markerDirectory: nil)
        await #expect(throws: StorageError.missingEntitlement("keychain-access-groups")) {
            try await store.read("default.session")
        }
        await #expect(throws: StorageError.missingEntitlement("keychain-access-groups")) {
            try await store.write(Data(), for: "default.session")
        }
        #expect(items.calls.withLock { $0 } == 1)
        let error = StorageError.missingEntitlement("keychain-access-groups")
        #expect(!error.isRetryable)
        #expect(error.errorDescription?.contains("keychain-access-groups") == true)
    }

    /// A Keychain that answers every call `errSecMissingEntitlement`, as for an unsigned macOS app.
    final class NoEntitlement: KeychainItems {
        let calls = Locked(0)
        private func refuse() -> KeychainStatus {
            calls.withLock { $0 += 1 }
            return .missingEntitlement
        }
        func copyData(account: String) -> Result<Data?, KeychainStatus> { .failure(refuse()) }
        func add(account: String, data: Data) -> KeychainStatus { refuse() }
        func update(account: String, data: Data) -> KeychainStatus { refuse() }
        func delete(account: String) -> KeychainStatus { refuse() }
        func allAccounts() -> Result<[String], KeychainStatus> { .failure(refuse()) }
    }
}
