import Foundation
import Limen
import TestSupport
import Testing

/// A ``SecureStore`` that is not a ``ProcessCoordinatedStore`` (so `AuthClient` has only its own locks to rely on),
/// that lets other tasks run inside every read (so racing first uses interleave), and that shows its entries.
actor OpenStore: SecureStore {
    private(set) var entries: [String: Data] = [:]
    /// The error every delete of a field-encryption key fails with, when set.
    var deleteFailure: StorageError?

    func failDeletes(with error: StorageError) {
        deleteFailure = error
    }

    func read(_ key: String) async throws(StorageError) -> Data? {
        for _ in 0..<20 { await Task.yield() }
        return entries[key]
    }

    func write(_ data: Data, for key: String) async throws(StorageError) {
        entries[key] = data
    }

    func delete(_ key: String) async throws(StorageError) {
        if let deleteFailure, key.hasPrefix("default.field_key.") { throw deleteFailure }
        entries[key] = nil
    }

    /// The stored field-encryption keys (JWK JSON) by store key.
    var fieldKeys: [String: Data] { entries.filter { $0.key.hasPrefix("default.field_key.") } }
}

/// A client over `store` whose stored session is `subject`'s, restored; no request reaches any server (the
/// transport answers 404, so sign-out finds no end-session or revocation endpoint).
func signedInClient(
    _ subject: String,
    store: any SecureStore,
    retention: EncryptionKeyRetention = .keep
) async throws -> AuthClient {
    let session = TokenSet(
        accessToken: "at-\(subject)", refreshToken: nil, idToken: nil, expiresAt: nil, scope: "openid",
        subject: subject, claims: ["sub": .string(subject)])
    try await store.write(try JSONEncoder().encode(session), for: "default.session")
    var configuration = Configuration(
        issuer: try #require(URL(string: "https://id.example.com")), clientID: "app", store: store,
        transport: RecordingTransport())
    configuration.encryptionKeyOnSignOut = retention
    let client = AuthClient(configuration: configuration)
    if let error = await client.restore() { throw error }
    return client
}

@Suite("Field encryption through AuthClient.user")
struct FieldEncryptionTests {
    @Test("a signed-in user's value round-trips; one key is created, stored as a JWK whose kid the value names")
    func roundTrip() async throws {
        let store = OpenStore()
        let client = try await signedInClient("auth0|alice", store: store)
        let field = try await client.user.encrypt(plaintext: "4111 1111 1111 1111")
        #expect(try await client.user.decrypt(ciphertext: field) == "4111 1111 1111 1111")
        #expect(!field.contains("4111"))
        let keys = await store.fieldKeys
        #expect(keys.count == 1)
        let stored = try FieldEncryptionKey(jwk: try #require(keys.values.first))
        #expect(try CompactJWE(field).keyID == stored.keyID)
        #expect(try stored.decrypt(field) == Array("4111 1111 1111 1111".utf8))
        #expect(await client.user.isEncryptionPossible())
    }

    @Test("another client on the same store (a relaunch) reads the values: the key is kept per user")
    func persisted() async throws {
        let store = MemoryStore()
        let field = try await signedInClient("alice", store: store).user.encrypt(plaintext: "secret")
        let relaunched = try await signedInClient("alice", store: store)
        #expect(try await relaunched.user.decrypt(ciphertext: field) == "secret")
    }

    @Test("concurrent first encryptions create a single key, even over a store without its own lock")
    func concurrentCreation() async throws {
        let store = OpenStore()
        let client = try await signedInClient("alice", store: store)
        let fields = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<32 {
                group.addTask { try await client.user.encrypt(plaintext: "value \(index)") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(await store.fieldKeys.count == 1)
        #expect(Set(try fields.map { try CompactJWE($0).keyID }).count == 1)
        let relaunched = try await signedInClient("alice", store: store)
        for field in fields {
            #expect(try await relaunched.user.decrypt(ciphertext: field).hasPrefix("value "))
        }
    }

    @Test("with nobody signed in: notSignedIn, and encryption is not possible")
    func signedOut() async throws {
        let client = AuthClient(
            configuration: Configuration(
                issuer: try #require(URL(string: "https://id.example.com")), clientID: "app", store: MemoryStore(),
                transport: RecordingTransport()))
        await #expect(throws: LimenError.notSignedIn) { try await client.user.encrypt(plaintext: "secret") }
        await #expect(throws: LimenError.notSignedIn) { try await client.user.decrypt(ciphertext: "a.b.c.d.e") }
        await #expect(throws: LimenError.notSignedIn) { try await client.user.exportEncryptionKey(passphrase: "p") }
        #expect(await client.user.isEncryptionPossible() == false)
    }

    @Test("decrypting or exporting before the user has a key: noKey (no key is created for them)")
    func noKey() async throws {
        let store = OpenStore()
        let client = try await signedInClient("alice", store: store)
        let foreign = try FieldEncryptionKey.generate().encrypt(Data("secret".utf8))
        await #expect(throws: LimenError.encryption(.noKey)) { try await client.user.decrypt(ciphertext: foreign) }
        await #expect(throws: LimenError.encryption(.noKey)) {
            try await client.user.exportEncryptionKey(passphrase: "passphrase")
        }
        #expect(await store.fieldKeys.isEmpty)
    }

    @Test("refusals come through as LimenError.encryption with the typed reason")
    func refusals() async throws {
        let client = try await signedInClient("alice", store: MemoryStore())
        let field = try await client.user.encrypt(plaintext: "secret")
        let foreign = try FieldEncryptionKey.generate().encrypt(Data("secret".utf8))
        await #expect(throws: LimenError.encryption(.wrongKeyID(try CompactJWE(foreign).keyID))) {
            try await client.user.decrypt(ciphertext: foreign)
        }
        let truncated = field.split(separator: ".", omittingEmptySubsequences: false).prefix(4).joined(separator: ".")
        await #expect(throws: LimenError.encryption(.malformed(.segmentCount(4)))) {
            try await client.user.decrypt(ciphertext: truncated)
        }
        await #expect(throws: LimenError.encryption(.malformed(.segmentCount(1)))) {
            try await client.user.decrypt(ciphertext: "plaintext")
        }
        let error = LimenError.encryption(.tampered)
        #expect(error.code == "encryption.tampered")
        #expect(!error.isRetryable)
        #expect(!error.requiresReauthentication)
    }

    @Test("a value whose plaintext is not UTF-8 text is refused as malformed")
    func notText() async throws {
        let store = OpenStore()
        let client = try await signedInClient("alice", store: store)
        _ = try await client.user.encrypt(plaintext: "create the key")
        let key = try FieldEncryptionKey(jwk: try #require(await store.fieldKeys.values.first))
        let binary = try key.encrypt(Data([0xFF, 0xFE, 0x00]))
        await #expect(throws: LimenError.encryption(.malformed(.invalidPayload))) {
            try await client.user.decrypt(ciphertext: binary)
        }
    }

    @Test("a stored key that is not a JWK is reported as corrupted storage, not replaced")
    func corruptedKey() async throws {
        let store = OpenStore()
        let client = try await signedInClient("alice", store: store)
        _ = try await client.user.encrypt(plaintext: "create the key")
        let name = try #require(await store.fieldKeys.keys.first)
        try await store.write(Data("not a key".utf8), for: name)
        let relaunched = try await signedInClient("alice", store: store)
        await #expect(throws: LimenError.storage(.corrupted(key: name))) {
            try await relaunched.user.encrypt(plaintext: "secret")
        }
        #expect(await store.fieldKeys[name] == Data("not a key".utf8))
    }
}
