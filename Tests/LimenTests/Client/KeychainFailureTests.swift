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

    @Test("a read refused while the device is locked leaves the phase restoring; resume() restores after unlock")
    func lockedRestore() async throws {
        let twin = KeychainTwin()
        let store = try KeychainItemStore.over(twin)
        try await store.write(try JSONEncoder().encode(Self.session), for: "default.session")
        twin.lock()
        let client = Self.client(store: store)
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
        let twin = KeychainTwin()
        let store = try KeychainItemStore.over(twin)
        try await store.write(try JSONEncoder().encode(Self.session), for: "default.session")
        twin.lock()
        let client = Self.client(store: store)
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

    @Test("an app and its widget sharing the items and a lock directory spend one rotating refresh token once")
    func appAndWidget() async throws {
        try await withTemporaryDirectory { directory in
            let twin = KeychainTwin()
            let gate = Gate()
            let arrived = Gate()
            try await ProviderFixture.with(
                store: try KeychainItemStore.over(twin, lockDirectory: directory)
            ) { request in
                await arrived.open()
                await gate.wait()
                return Self.rotating(request)
            } run: { fixture async throws in
                let widgetStore = KeychainItemStore(
                    validNamespace: "app", items: twin, lockDirectory: directory, markerDirectory: nil,
                    onContention: { Task { await gate.open() } })
                let widget = AuthClient(
                    configuration: Configuration(
                        issuer: fixture.server.baseURL, clientID: "app", store: widgetStore,
                        transport: URLSessionTransport(), now: { fixture.clock.now }))
                await widget.restore()
                async let app = fixture.client.validAccessToken()
                await arrived.wait()
                // The widget finds the app holding the lock file, which opens the gate; without the lock it would send
                // a second refresh with the spent token, which the gate holds until the time limit.
                let fromWidget = try await widget.validAccessToken()
                #expect(try await app == "at-new")
                #expect(fromWidget == "at-new")
                #expect(await fixture.tokenRequests() == 1)
            }
        }
    }
}
