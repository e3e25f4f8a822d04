import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@Suite("Refresh storage failures")
struct RefreshStorageFailureTests {
    @Test("a cross-process lock that cannot be taken is reported as a storage error, not as cancelled")
    func lockFailure() async throws {
        try await withTemporaryDirectory { directory in
            let store = try EncryptedFileStore(directory: directory, namespace: "app")
            let session = TokenSet(
                accessToken: "at-old", refreshToken: "rt-old", idToken: nil, expiresAt: Date(timeIntervalSince1970: 0),
                scope: nil, subject: "alice", claims: [:])
            try await store.write(try JSONEncoder().encode(session), for: "default.session")
            // A directory where the lock file should be: open(2) fails with EISDIR.
            let lockPath = directory.appending(component: "app.lock")
            try FileManager.default.createDirectory(at: lockPath, withIntermediateDirectories: false)
            let transport = RecordingTransport()
            let client = AuthClient(
                configuration: Configuration(
                    issuer: URL(string: "http://127.0.0.1:1")!, clientID: "app", store: store, transport: transport))
            let error = await #expect(throws: LimenError.self) { try await client.validAccessToken() }
            #expect(error == .storage(.lockFailed(path: lockPath.path(percentEncoded: false), errno: EISDIR)))
            let refreshError = await #expect(throws: LimenError.self) { try await client.refresh() }
            #expect(refreshError?.code == "storage.lock_failed")
            #expect(client.state.phase == .signedIn)
            #expect(await transport.requests.isEmpty)
        }
    }

    @Test("a lock that cannot be taken again after the refresh request keeps the new tokens, not the spent ones")
    func lockLostAfterRefresh() async throws {
        let store = LockOnceStore()
        try await ProviderFixture.with(store: store) { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            #expect(try await fixture.client.validAccessToken() == "at-new")
            #expect(try await fixture.storedSession()?.refreshToken == "rt-new")
            #expect(await fixture.tokenRequests() == 1)
        }
    }
}

/// A store whose cross-process lock is taken once and then refused (a lock file removed under the app, say).
final class LockOnceStore: ProcessCoordinatedStore {
    private let base = MemoryStore()
    private let taken = Locked(0)

    func read(_ key: String) async throws(StorageError) -> Data? { try await base.read(key) }
    func write(_ data: Data, for key: String) async throws(StorageError) { try await base.write(data, for: key) }
    func delete(_ key: String) async throws(StorageError) { try await base.delete(key) }

    func withExclusiveAccess<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        guard
            taken.withLock({
                $0 += 1
                return $0
            }) == 1
        else {
            throw StorageError.lockFailed(path: "app.lock", errno: EIO)
        }
        return try await body()
    }
}
