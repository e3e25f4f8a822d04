import Crypto
import Foundation
import LimenServerStorage
import NIOCore
import SQLiteNIO
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("First run and restarts")
struct BootstrapTests {
    @Test("the first start creates a 0600 master key, an ES256 and an RS256 key, and the limen-cli client")
    func firstStart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = ServerConfiguration.testing(directory: directory)
        let provider = try await ServerComposition.bootstrap(configuration: configuration)
        await provider.store.close()

        let attributes = try FileManager.default.attributesOfItem(atPath: configuration.masterKeyPath)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(provider.keys.keys.map(\.algorithm.rawValue).sorted() == ["ES256", "RS256"])
        let store = try await reopen(configuration)
        let stored = try await store.client(id: "limen-cli")
        await store.close()
        let client = try #require(stored)
        #expect(client.kind == .public)
        #expect(client.isNative)
    }

    @Test("a second start reuses the same signing keys and does not duplicate the seeded client")
    func secondStartReuses() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = ServerConfiguration.testing(directory: directory)
        let first = try await ServerComposition.bootstrap(configuration: configuration)
        await first.store.close()
        let second = try await ServerComposition.bootstrap(configuration: configuration)
        let clients = try await second.store.clients()
        let stored = try await second.store.signingKeys()
        await second.store.close()

        #expect(second.keys.keys.map(\.kid) == first.keys.keys.map(\.kid))
        #expect(second.keys.keys.map(\.privateKeyBytes) == first.keys.keys.map(\.privateKeyBytes))
        #expect(stored.count == 2)
        #expect(clients.map(\.id) == ["limen-cli"])
    }

    @Test("a master key file others can read is refused with a message naming the file and the fix")
    func worldReadableMasterKeyRefused() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = ServerConfiguration.testing(directory: directory)
        let first = try await ServerComposition.bootstrap(configuration: configuration)
        await first.store.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: configuration.masterKeyPath)

        let error = await #expect(throws: MasterKeyError.self) {
            _ = try await ServerComposition.bootstrap(configuration: configuration)
        }
        #expect(error == .tooPermissive(path: configuration.masterKeyPath, mode: 0o644))
        let message = error?.errorDescription ?? ""
        #expect(message.contains(configuration.masterKeyPath))
        #expect(message.contains("chmod 600"))
    }

    @Test("stored signing keys hold no private key bytes in clear, and another master key cannot open them")
    func signingKeysEncryptedAtRest() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = ServerConfiguration.testing(directory: directory)
        let provider = try await ServerComposition.bootstrap(configuration: configuration)
        await provider.store.close()

        let connection = try await SQLiteConnection.open(storage: .file(path: configuration.databasePath))
        let rows = try await connection.query("SELECT kid, encrypted_private_key FROM signing_keys")
        try await connection.close()
        #expect(rows.count == 2)
        for key in provider.keys.keys {
            let row = try #require(rows.first { $0.column("kid")?.string == key.kid })
            let buffer = try #require(row.column("encrypted_private_key")?.blob)
            let stored = Data(buffer.readableBytesView)
            #expect(!stored.containsBytes(key.privateKeyBytes), "\(key.algorithm) private key stored in clear")
            // Not even a 16-byte run of the private key appears in the row.
            let run = key.privateKeyBytes.prefix(16)
            #expect(!stored.containsBytes(run))
        }

        let store = try await reopen(configuration)
        let records = try await store.signingKeys()
        await store.close()
        let stranger = MasterKey(key: .init(size: .bits256))
        for record in records {
            #expect(throws: KeyError.wrongMasterKey(record.kid)) { try SigningKey(record: record, masterKey: stranger) }
        }
    }

    private func reopen(_ configuration: ServerConfiguration) async throws -> SQLiteStore {
        try await SQLiteStore.open(path: configuration.databasePath)
    }
}
