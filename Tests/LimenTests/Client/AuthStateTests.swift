import Foundation
import Limen
import LimenOIDC
import Observation
import TestSupport
import Testing

@Suite("AuthClient state")
struct AuthStateTests {
    @Test("a stored session is restored as restoring then signedIn, without a signedOut flash")
    func launchWithStoredSession() async throws {
        try await ProviderFixture.with(expiresIn: 3600) { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let client = fixture.client
            #expect(client.state.phase == .restoring)
            var updates = client.stateUpdates().makeAsyncIterator()
            #expect(await client.restore() == nil)
            let first = await updates.next()
            let second = await updates.next()
            #expect([first?.phase, second?.phase] == [.restoring, .signedIn])
            #expect(second?.user.id == "alice")
        }
    }

    @Test("a tampered encrypted store restores as signed out with a corrupted error, and does not crash")
    func tamperedStore() async throws {
        try await withTemporaryDirectory { directory in
            let store = try await tamperedEncryptedStore(in: directory)
            let client = AuthClient(
                configuration: Configuration(
                    issuer: URL(string: "http://127.0.0.1:1")!, clientID: "app", store: store,
                    transport: RecordingTransport()))
            #expect(await client.restore() == .storage(.corrupted(key: "default.session")))
            #expect(client.state.phase == .signedOut)
            #expect(client.state.auth.isAuthenticated == false)
            #expect(try await client.validAccessToken() == nil)
        }
    }

    @Test("subscribe emits a projection only when it changes: a refresh keeps isAuthenticated, sign-out flips it")
    func subscribeEmitsOnChange() async throws {
        try await ProviderFixture.with { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let client = fixture.client
            await client.restore()
            var tokens = client.subscribe { $0.auth.accessToken }.makeAsyncIterator()
            var authenticated = client.subscribe { $0.auth.isAuthenticated }.makeAsyncIterator()
            #expect(await tokens.next() == "at-old")
            #expect(await authenticated.next() == true)

            #expect(try await client.refresh() == "at-new")
            #expect(await tokens.next() == "at-new")  // the state really changed…
            await client.signOut(revoke: false)
            // …but the isAuthenticated stream skipped it: its next value is the sign-out.
            #expect(await authenticated.next() == false)
            #expect(await tokens.next() == .some(nil))
        }
    }

    @MainActor
    @Test("AuthStateModel publishes a sign-out through Observation")
    func modelReflectsSignOut() async throws {
        try await ProviderFixture.with(expiresIn: 3600) { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let client = fixture.client
            await client.restore()
            let model = AuthStateModel(client: client)
            #expect(model.state.auth.isAuthenticated)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                withObservationTracking {
                    _ = model.state
                } onChange: {
                    continuation.resume()
                }
                Task { await client.signOut(revoke: false) }
            }
            // onChange fires in willSet; the main actor finishes the assignment before this resumes.
            #expect(model.state.phase == .signedOut)
            #expect(model.state.auth.isAuthenticated == false)
            #expect(model.state.auth.hasPreviouslySignedIn)
        }
    }
}

/// An ``EncryptedFileStore`` in `directory` holding a session whose sealed file has one byte flipped.
func tamperedEncryptedStore(in directory: URL, accessToken: String = "at-stored") async throws
    -> EncryptedFileStore
{
    let store = try EncryptedFileStore(directory: directory, namespace: "app")
    let session = TokenSet(
        accessToken: accessToken, refreshToken: "rt-stored", idToken: nil, expiresAt: nil, scope: nil,
        subject: "alice", claims: [:])
    try await store.write(try JSONEncoder().encode(session), for: "default.session")
    let sealed = directory.appending(component: "app.default.session.sealed")
    var bytes = try Data(contentsOf: sealed)
    bytes[bytes.count / 2] ^= 0x01
    try overwrite(sealed, with: bytes)
    return store
}
