import Foundation
import LimenOIDC
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("First run: nodes starting together create one key set")
struct FirstRunTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func key(_ kid: String, _ algorithm: String) -> SigningKeyRecord {
        SigningKeyRecord(
            kid: kid, algorithm: algorithm, encryptedPrivateKey: Data([1, 2, 3]), createdAt: now, activatesAt: now)
    }

    @Test(
        "a first key of an algorithm is stored once; a second of the same algorithm is not",
        arguments: StoreUnderTest.allCases)
    func insertIfAlgorithmAbsent(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        #expect(try await store.insertSigningKeyIfAlgorithmAbsent(key("es-1", "ES256")))
        #expect(try await store.insertSigningKeyIfAlgorithmAbsent(key("es-2", "ES256")) == false)
        #expect(try await store.insertSigningKeyIfAlgorithmAbsent(key("rs-1", "RS256")))
        #expect(try await store.signingKeys().map(\.kid) == ["es-1", "rs-1"])
        await cleanup()
    }

    @Test("many first keys of one algorithm stored at once leave exactly one", arguments: StoreUnderTest.allCases)
    func concurrentInserts(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await kind.make()
        let stored = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask { try await store.insertSigningKeyIfAlgorithmAbsent(key("es-\(index)", "ES256")) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(stored == 1)
        #expect(try await store.signingKeys().count == 1)
        await cleanup()
    }

    @Test(
        "two providers starting at once on one fresh PostgreSQL database make one key set and one limen-cli",
        .enabled(if: PostgresTestDatabase.unavailableReason == nil, "PostgreSQL is not configured"))
    func twoNodesOnPostgres() async throws {
        let (store, url, cleanup) = try await PostgresTestDatabase.make()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory)
        configuration.usePostgres(url: url)
        try await expectOneKeySet(configuration: configuration, store: store)
        await cleanup()
    }

    @Test(
        "a node whose master key differs from the one that created the keys is refused with a message saying so",
        .enabled(if: PostgresTestDatabase.unavailableReason == nil, "PostgreSQL is not configured"))
    func differentMasterKeyRefused() async throws {
        let (_, url, cleanup) = try await PostgresTestDatabase.make()
        let firstDirectory = try TemporaryDirectory()
        let secondDirectory = try TemporaryDirectory()
        defer {
            firstDirectory.remove()
            secondDirectory.remove()
        }
        var configuration = ServerConfiguration.testing(directory: firstDirectory)
        configuration.usePostgres(url: url)
        let first = try await ServerComposition.bootstrap(configuration: configuration)
        await first.store.close()

        configuration.dataDirectory = secondDirectory.path
        let error = await #expect(throws: KeyError.self) {
            try await ServerComposition.bootstrap(configuration: configuration)
        }
        #expect(error?.code == "keys.wrong_master_key")
        #expect(error?.errorDescription?.contains("same master.key") == true)
        await cleanup()
    }

    @Test("two providers starting at once on one fresh SQLite file make one master key, key set and limen-cli")
    func twoNodesOnSQLite() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = ServerConfiguration.testing(directory: directory)
        let store = try await SQLiteStore.open(path: configuration.databasePath)
        do {
            try await expectOneKeySet(configuration: configuration, store: store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Bootstraps two providers with `configuration` at once and checks what `store` (the same database) holds.
    private func expectOneKeySet(configuration: ServerConfiguration, store: any Store) async throws {
        let outcomes = await withTaskGroup(of: Result<ServerComposition, any Error>.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    do {
                        return .success(try await ServerComposition.bootstrap(configuration: configuration))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        // Every store opened is closed, even when the other start failed.
        for case .success(let provider) in outcomes { await provider.store.close() }
        let providers = try outcomes.map { try $0.get() }

        let keys = try await store.signingKeys()
        #expect(keys.map(\.algorithm).sorted() == ["ES256", "RS256"])
        #expect(try await store.clients().filter { $0.id == SeedClients.cliClientID }.count == 1)
        #expect(providers[0].keys.jwks(at: Date()) == providers[1].keys.jwks(at: Date()))
        #expect(Set(providers[0].keys.keys.map(\.kid)) == Set(keys.map(\.kid)))
    }
}
