import Foundation
import Limen
import LimenOIDC
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
}
