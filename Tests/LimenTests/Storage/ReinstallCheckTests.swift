import Foundation
import Testing

@testable import Limen

@Suite("The first-launch check removes Keychain items left by an earlier installation")
struct ReinstallCheckTests {
    /// Items written by an installation whose marker directory is `directory`.
    static func install(_ twin: KeychainTwin, markerDirectory: URL) async throws {
        let store = try KeychainItemStore.over(twin, markerDirectory: markerDirectory)
        try await store.write(Data("tokens".utf8), for: "default.session")
    }

    @Test("after a delete and reinstall (the marker is gone, the items are not) the old session is removed")
    func reinstalled() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            try await Self.install(twin, markerDirectory: directory.appending(component: "old-container"))
            let reinstalled = try KeychainItemStore.over(twin, markerDirectory: directory.appending(component: "new"))
            #expect(try await reinstalled.read("default.session") == nil)
            #expect(twin.accounts == [ReinstallCheck.accountPrefix])
        }
    }

    @Test("a relaunch of the same installation keeps the session")
    func relaunched() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            try await Self.install(twin, markerDirectory: directory)
            let relaunched = try KeychainItemStore.over(twin, markerDirectory: directory)
            #expect(try await relaunched.read("default.session") == Data("tokens".utf8))
        }
    }

    @Test("items written before the check existed (nothing recorded) are kept and adopted by this installation")
    func upgraded() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            try await KeychainItemStore.over(twin).write(Data("tokens".utf8), for: "default.session")
            let upgraded = try KeychainItemStore.over(twin, markerDirectory: directory)
            #expect(try await upgraded.read("default.session") == Data("tokens".utf8))
            let relaunched = try KeychainItemStore.over(twin, markerDirectory: directory)
            #expect(try await relaunched.read("default.session") == Data("tokens".utf8))
        }
    }

    @Test("a marker that cannot be created never passes for a reinstall: nothing is removed")
    func markerUnavailable() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            try await Self.install(twin, markerDirectory: directory.appending(component: "old"))
            // A file where the marker's directory should be: mkdir fails with ENOTDIR / EEXIST.
            let blocked = directory.appending(component: "blocked")
            try Data().write(to: blocked)
            let store = try KeychainItemStore.over(twin, markerDirectory: blocked)
            #expect(try await store.read("default.session") == Data("tokens".utf8))
        }
    }

    @Test("a locked device fails the check with a retryable error and removes nothing")
    func locked() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            try await Self.install(twin, markerDirectory: directory.appending(component: "old"))
            twin.lock()
            let store = try KeychainItemStore.over(twin, markerDirectory: directory.appending(component: "new"))
            let error = await #expect(throws: StorageError.self) { try await store.read("default.session") }
            #expect(error?.isRetryable == true)
            twin.unlock()
            #expect(twin.accounts.contains("default.session"))
        }
    }

    @Test("a client restoring after a reinstall starts signed out")
    func clientAfterReinstall() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            let old = try KeychainItemStore.over(twin, markerDirectory: directory.appending(component: "old"))
            try await old.write(try JSONEncoder().encode(KeychainFailureTests.session), for: "default.session")
            let store = try KeychainItemStore.over(twin, markerDirectory: directory.appending(component: "new"))
            let client = KeychainFailureTests.client(store: store)
            #expect(await client.restore() == nil)
            #expect(client.state.phase == .signedOut)
        }
    }
}
