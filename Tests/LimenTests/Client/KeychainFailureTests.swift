import Foundation
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@testable import Limen

/// The Keychain behaviours Linux cannot show, through a twin that answers the way the Keychain does.
@Suite("Keychain failures are not sign-outs", .timeLimit(.minutes(1)))
struct KeychainFailureTests {
    static let session = TokenSet(
        accessToken: "at-old", refreshToken: "rt-old", idToken: nil, expiresAt: nil, scope: nil, subject: "alice",
        claims: [:])

    /// A token endpoint that rotates rt-old → rt-new → rt-3 and refuses anything else.
    static func rotating(_ request: ReceivedRequest) -> HTTPResponse {
        switch request.form["refresh_token"] {
        case "rt-old": .json(ProviderFixture.rotated)
        case "rt-new":
            .json(#"{"access_token":"at-3","token_type":"Bearer","expires_in":3600,"refresh_token":"rt-3"}"#)
        default: .json(#"{"error":"invalid_grant"}"#, status: 400)
        }
    }

    static func client(store: any SecureStore) -> AuthClient {
        AuthClient(
            configuration: Configuration(
                issuer: URL(string: "http://127.0.0.1:1")!, clientID: "app", store: store,
                transport: RecordingTransport()))
    }

    /// A client over a twin holding ``session``, locked before the client reads it.
    static func lockedClient() async throws -> (AuthClient, KeychainTwin) {
        let twin = KeychainTwin()
        let store = try KeychainItemStore.over(twin)
        try await store.write(try JSONEncoder().encode(Self.session), for: "default.session")
        twin.lock()
        return (Self.client(store: store), twin)
    }

    @Test("a read refused while the device is locked leaves the phase restoring; resume() restores after unlock")
    func lockedRestore() async throws {
        let (client, twin) = try await Self.lockedClient()
        #expect(await client.restore() == .storage(.keychain(status: -25308)))
        #expect(client.state.phase == .restoring)
        let error = await #expect(throws: LimenError.self) { try await client.validAccessToken() }
        #expect(error?.isRetryable == true)
        #expect(client.state.phase == .restoring)
        #expect(await client.resume() == .storage(.keychain(status: -25308)))
        twin.unlock()
        #expect(await client.resume() == nil)
        #expect(client.state.phase == .signedIn)
        #expect(try await client.validAccessToken() == "at-old")
    }

    @Test("restore() after a locked read reads the store again instead of repeating the failure")
    func restoreRetries() async throws {
        let (client, twin) = try await Self.lockedClient()
        await client.restore()
        twin.unlock()
        #expect(await client.restore() == nil)
        #expect(client.state.user.id == "alice")
    }

    @Test("a save refused after a rotation keeps the rotated tokens, so the next refresh spends the new token")
    func unsavedRotation() async throws {
        let twin = KeychainTwin()
        try await ProviderFixture.with(store: try KeychainItemStore.over(twin), token: Self.rotating) {
            fixture async throws in
            twin.refuseWrites()
            #expect(try await fixture.client.validAccessToken() == "at-new")
            #expect(fixture.client.state.phase == .signedIn)
            #expect(try await fixture.storedSession()?.refreshToken == "rt-old")
            fixture.clock.advance(by: 3600)
            #expect(try await fixture.client.validAccessToken() == "at-3")
            let spent = await fixture.server.log.requests.filter { $0.path == "/token" }.map {
                $0.form["refresh_token"]
            }
            #expect(spent == ["rt-old", "rt-new"])
            twin.unlock()
            #expect(await fixture.client.resume() == nil)
            #expect(try await fixture.storedSession()?.refreshToken == "rt-3")
        }
    }

    @Test("the next access saves a refreshed set the store refused, without another refresh")
    func unsavedSavedOnNextAccess() async throws {
        let twin = KeychainTwin()
        try await ProviderFixture.with(store: try KeychainItemStore.over(twin), token: Self.rotating) {
            fixture async throws in
            twin.refuseWrites()
            #expect(try await fixture.client.validAccessToken() == "at-new")
            twin.unlock()
            #expect(try await fixture.client.validAccessToken() == "at-new")
            #expect(try await fixture.storedSession()?.refreshToken == "rt-new")
            #expect(await fixture.tokenRequests() == 1)
        }
    }

    @Test("a sign-out the locked Keychain refused to carry out is carried out on resume(), never undone")
    func lockedSignOut() async throws {
        let twin = KeychainTwin()
        let store = try KeychainItemStore.over(twin)
        try await store.write(try JSONEncoder().encode(Self.session), for: "default.session")
        let client = Self.client(store: store)
        await client.restore()
        twin.lock()
        await client.signOut(revoke: false)
        #expect(client.state.phase == .signedOut)
        #expect(await client.restore() == nil)
        #expect(client.state.phase == .signedOut)
        twin.unlock()
        #expect(twin.accounts.contains("default.session"))
        #expect(await client.resume() == nil)
        #expect(!twin.accounts.contains("default.session"))
    }

    /// The app's side of two processes sharing Keychain items and a lock directory: a fixture over a twin whose token
    /// endpoint, once a refresh reaches it, opens `arrived` and holds the answer until `release` opens.
    struct HeldRefresh {
        let fixture: ProviderFixture
        let twin: KeychainTwin
        let directory: URL
        let arrived: Gate
        let release: Gate
    }

    /// Runs `body` with a ``HeldRefresh`` in a temporary directory, stopping the fixture however `body` ends.
    static func withHeldRefresh(_ body: (HeldRefresh) async throws -> Void) async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            let arrived = Gate()
            let release = Gate()
            try await ProviderFixture.with(
                store: try KeychainItemStore.over(twin, lockDirectory: directory)
            ) { request in
                await arrived.open()
                await release.wait()
                return Self.rotating(request)
            } run: { fixture async throws in
                try await body(
                    HeldRefresh(fixture: fixture, twin: twin, directory: directory, arrived: arrived, release: release))
            }
        }
    }

    @Test("an app and its widget sharing the items and a lock directory spend one rotating refresh token once")
    func appAndWidget() async throws {
        try await Self.withHeldRefresh { held in
            let widgetStore = try KeychainItemStore.over(held.twin, lockDirectory: held.directory)
            // The widget finds the app's refresh claim and waits on its clock, which releases the app's request;
            // without the claim it would send a second refresh with the spent token, held until the time limit.
            let widget = AuthClient(
                configuration: Configuration(
                    issuer: held.fixture.server.baseURL, clientID: "app", store: widgetStore,
                    transport: URLSessionTransport(), now: { held.fixture.clock.now },
                    clock: TestClock(onSleep: { _ in await held.release.open() })))
            await widget.restore()
            async let app = held.fixture.client.validAccessToken()
            await held.arrived.wait()
            let fromWidget = try await widget.validAccessToken()
            #expect(try await app == "at-new")
            #expect(fromWidget == "at-new")
            #expect(await held.fixture.tokenRequests() == 1)
            #expect(!held.twin.accounts.contains("default.refresh_claim"), "the claim is released")
        }
    }

    @Test("the lock file is free while the refresh request is in flight (iOS ends apps holding it when suspended)")
    func lockFreeDuringRefresh() async throws {
        try await Self.withHeldRefresh { held in
            async let refreshed = held.fixture.client.validAccessToken()
            await held.arrived.wait()
            // Another process takes the same lock file while the request waits at the provider.
            let lock = FileLock(path: held.directory.appending(component: "app.lock").path(percentEncoded: false))
            let claimed = try await lock.withLock { held.twin.accounts.contains("default.refresh_claim") }
            #expect(claimed, "the lock is free and the claim tells other processes to wait")
            await held.release.open()
            #expect(try await refreshed == "at-new")
        }
    }
}

extension KeychainFailureTests {
    @Test("checkCredentialState while the Keychain is locked throws a retryable error: never a sign-out")
    func lockedCredentialCheck() async throws {
        let (client, twin) = try await Self.lockedClient()
        let apple = StubCredentialStates(.success(.revoked))
        let error = await #expect(throws: LimenError.self) { try await client.checkCredentialState(using: apple) }
        #expect(error?.isRetryable == true)
        #expect(error?.requiresReauthentication == false)
        #expect(await apple.asked.isEmpty)
        #expect(client.state.phase == .restoring)
        twin.unlock()
        #expect(try await client.checkCredentialState(using: StubCredentialStates(.success(.authorized))))
        #expect(client.state.phase == .signedIn)
    }
}
