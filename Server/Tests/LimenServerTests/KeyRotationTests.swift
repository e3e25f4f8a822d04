import Foundation
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Key rotation")
struct KeyRotationTests {
    @Test("a new key is published before it signs, and a retired key stays published for the retention period")
    func rotation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = ServerConfiguration.testing(directory: directory)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let first = try await ServerComposition.bootstrap(configuration: configuration, now: { start })
        let masterKey = try MasterKey.loadOrCreate(at: configuration.masterKeyPath)
        let oldKids = Set(first.keys.keys.map(\.kid))

        let rotated = try await KeyRing.rotate(
            store: first.store, masterKey: masterKey, now: start.addingTimeInterval(100), publishAhead: 3600
        )
        await first.store.close()
        let switchover = start.addingTimeInterval(3700)
        #expect(rotated.keys.count == 4)
        let newKids = Set(rotated.keys.map(\.kid)).subtracting(oldKids)
        #expect(newKids.count == 2)

        for algorithm in SigningAlgorithm.allCases {
            let before = try #require(rotated.signingKey(for: algorithm, at: switchover.addingTimeInterval(-1)))
            let after = try #require(rotated.signingKey(for: algorithm, at: switchover))
            #expect(oldKids.contains(before.kid), "the new \(algorithm) key must not sign before the switchover")
            #expect(newKids.contains(after.kid))
        }
        // Published ahead: all four keys are in the JWKS right after the rotation.
        #expect(rotated.publishedKeys(at: start.addingTimeInterval(101)).count == 4)
        // Retired keys stay until the retention has passed, then leave.
        let lastDay = switchover.addingTimeInterval(KeyRing.retention - 1)
        #expect(rotated.publishedKeys(at: lastDay).count == 4)
        let afterRetention = switchover.addingTimeInterval(KeyRing.retention)
        #expect(Set(rotated.publishedKeys(at: afterRetention).map(\.kid)) == newKids)

        // A restart sees the same ring.
        let restarted = try await ServerComposition.bootstrap(configuration: configuration, now: { switchover })
        await restarted.store.close()
        #expect(restarted.keys.keys.map(\.kid) == rotated.keys.map(\.kid))
        #expect(
            restarted.keys.signingKey(for: .es256, at: switchover)?.kid
                == rotated.signingKey(for: .es256, at: switchover)?.kid)
    }

    @Test("a token signed by the outgoing key still verifies against the JWKS after the switchover")
    func oldTokensStillVerify() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = ServerConfiguration.testing(directory: directory)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let provider = try await ServerComposition.bootstrap(configuration: configuration, now: { start })
        let masterKey = try MasterKey.loadOrCreate(at: configuration.masterKeyPath)
        let ring = try await KeyRing.rotate(store: provider.store, masterKey: masterKey, now: start, publishAhead: 60)
        await provider.store.close()

        let signer = try await TokenSigner(keys: ring)
        let oldToken = try await signer.sign(["sub": .string("u")], algorithm: .rs256, at: start)
        let laterJWKS = try JSONWebKeySet(
            json: JSONEncoder().encode(JSONValue.object(ring.jwks(at: start.addingTimeInterval(3600)))))
        _ = try await JWSVerifier.verify(compact: oldToken, jwks: laterJWKS, allowedAlgorithms: [.rs256])
    }

    @Test("a running server publishes keys rotated by another process once it refreshes")
    func runningServerPicksUpRotation() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = ServerConfiguration.testing(directory: directory)
        let provider = try await ServerComposition.bootstrap(configuration: configuration)
        let app = Application(router: LimenServerApplication.router(composition: provider))
        @Sendable func publishedCount(_ client: any TestClientProtocol) async throws -> Int {
            try await client.execute(uri: "/jwks", method: .get) { response in
                let body = try JSONDecoder().decode(
                    [String: [[String: String]]].self,
                    from: Data(response.body.readableBytesView)
                )
                return body["keys"]?.count ?? 0
            }
        }
        do {
            try await app.test(.router) { client in
                #expect(try await publishedCount(client) == 2)
                // Another process (the keys command) rotates through its own connection.
                let other = try await SQLiteStore.open(path: configuration.databasePath)
                let masterKey = try MasterKey.loadOrCreate(at: configuration.masterKeyPath)
                _ = try await KeyRing.rotate(store: other, masterKey: masterKey, now: Date(), publishAhead: 3600)
                await other.close()
                #expect(try await publishedCount(client) == 2)

                await KeyRingRefresher(
                    keys: provider.keyRing, store: provider.store, masterKey: provider.masterKey, now: provider.now
                ).refreshOnce()
                #expect(try await publishedCount(client) == 4)
            }
        } catch {
            await provider.store.close()
            throw error
        }
        await provider.store.close()
    }

    @Test("/jwks publishes on the provider's clock: a retired key leaves when its retention ends by that clock")
    func jwksFollowsProviderClock() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = ServerConfiguration.testing(directory: directory)
        let clock = TestNow()
        let provider = try await ServerComposition.bootstrap(configuration: configuration, now: { clock.now })
        let masterKey = try MasterKey.loadOrCreate(at: configuration.masterKeyPath)
        let app = Application(router: LimenServerApplication.router(composition: provider))
        @Sendable func publishedKids(_ client: any TestClientProtocol) async throws -> Set<String> {
            try await client.execute(uri: "/jwks", method: .get) { response in
                let body = try JSONDecoder().decode(
                    [String: [[String: String]]].self, from: Data(response.body.readableBytesView))
                return Set((body["keys"] ?? []).compactMap { $0["kid"] })
            }
        }
        do {
            try await app.test(.router) { client in
                _ = try await KeyRing.rotate(
                    store: provider.store, masterKey: masterKey, now: clock.now, publishAhead: 60)
                try await provider.reloadKeys()
                let newKids = Set(
                    SigningAlgorithm.allCases.compactMap {
                        provider.keys.signingKey(for: $0, at: clock.now.addingTimeInterval(60))?.kid
                    })
                #expect(try await publishedKids(client).count == 4)

                clock.advance(by: 60 + KeyRing.retention)
                #expect(try await publishedKids(client) == newKids)
            }
        } catch {
            await provider.store.close()
            throw error
        }
        await provider.store.close()
    }
}
