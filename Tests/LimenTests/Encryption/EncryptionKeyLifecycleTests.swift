import Foundation
import Limen
import TestSupport
import Testing

@Suite("Field-encryption keys: transfer to another device, sign-out, several users")
struct EncryptionKeyLifecycleTests {
    static let passphrase = "correct horse battery staple"

    @Test("a key exported on one client and imported on a second (another store) decrypts the first one's data")
    func transfer() async throws {
        let first = try await signedInClient("alice", store: MemoryStore())
        let field = try await first.user.encrypt(plaintext: "4111 1111 1111 1111")
        let export = try await first.user.exportEncryptionKey(passphrase: Self.passphrase)
        let secondStore = OpenStore()
        let second = try await signedInClient("alice", store: secondStore)
        try await second.user.importEncryptionKey(export, passphrase: Self.passphrase)
        #expect(try await second.user.decrypt(ciphertext: field) == "4111 1111 1111 1111")
        // Stored, not only held in memory: a relaunch reads the value too.
        let relaunched = try await signedInClient("alice", store: secondStore)
        #expect(try await relaunched.user.decrypt(ciphertext: field) == "4111 1111 1111 1111")
    }

    @Test("an import with a wrong passphrase is refused and leaves the user's key as it was")
    func wrongPassphrase() async throws {
        let first = try await signedInClient("alice", store: MemoryStore())
        _ = try await first.user.encrypt(plaintext: "create the key")
        let export = try await first.user.exportEncryptionKey(passphrase: Self.passphrase)
        let second = try await signedInClient("alice", store: MemoryStore())
        let own = try await second.user.encrypt(plaintext: "mine")
        await #expect(throws: LimenError.encryption(.wrongPassphrase)) {
            try await second.user.importEncryptionKey(export, passphrase: "Correct horse battery staple")
        }
        #expect(try await second.user.decrypt(ciphertext: own) == "mine")
    }

    @Test("an import of an export with p2c = 1 is refused as out of bounds")
    func weakExport() async throws {
        let client = try await signedInClient("alice", store: MemoryStore())
        _ = try await client.user.encrypt(plaintext: "create the key")
        let export = try await client.user.exportEncryptionKey(passphrase: Self.passphrase)
        var segments = export.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let headerJSON = try #require(Base64URL.decode(segments[0]))
        var header = try #require(try JSONValue(parsing: headerJSON).objectValue)
        header["p2c"] = .number(1)
        segments[0] = Base64URL.encode(JSONValue.object(header).serialized())
        await #expect(throws: LimenError.encryption(.keyDerivationOutOfBounds(parameter: "p2c", value: 1))) {
            try await client.user.importEncryptionKey(segments.joined(separator: "."), passphrase: Self.passphrase)
        }
    }

    @Test("sign-out keeps the key by default: the same user signed in again reads their values")
    func signOutKeeps() async throws {
        let store = OpenStore()
        let client = try await signedInClient("alice", store: store)
        let field = try await client.user.encrypt(plaintext: "secret")
        let result = await client.signOut()
        #expect(result.encryptionKeyError == nil)
        await #expect(throws: LimenError.notSignedIn) { try await client.user.decrypt(ciphertext: field) }
        #expect(await store.fieldKeys.count == 1)
        let again = try await signedInClient("alice", store: store)
        #expect(try await again.user.decrypt(ciphertext: field) == "secret")
    }

    @Test("with encryptionKeyOnSignOut = .delete, sign-out deletes the key from the store")
    func signOutDeletes() async throws {
        let store = OpenStore()
        let client = try await signedInClient("alice", store: store, retention: .delete)
        let field = try await client.user.encrypt(plaintext: "secret")
        let result = await client.signOut()
        #expect(result.encryptionKeyError == nil)
        #expect(await store.fieldKeys.isEmpty)
        let again = try await signedInClient("alice", store: store, retention: .delete)
        await #expect(throws: LimenError.encryption(.noKey)) { try await again.user.decrypt(ciphertext: field) }
    }

    @Test("a store that refuses to delete the key at sign-out: the user is signed out, the result says why")
    func signOutDeleteRefused() async throws {
        let store = OpenStore()
        let client = try await signedInClient("alice", store: store, retention: .delete)
        _ = try await client.user.encrypt(plaintext: "secret")
        await store.failDeletes(with: .io(path: "field key", errno: 5))
        let result = await client.signOut()
        #expect(result.encryptionKeyError == .storage(.io(path: "field key", errno: 5)))
        #expect(client.state.phase == .signedOut)
        #expect(await store.fieldKeys.count == 1)
    }

    @Test("deleteEncryptionKey removes the signed-in user's key from memory and store")
    func explicitDelete() async throws {
        let store = OpenStore()
        let client = try await signedInClient("alice", store: store)
        let field = try await client.user.encrypt(plaintext: "secret")
        try await client.user.deleteEncryptionKey()
        #expect(await store.fieldKeys.isEmpty)
        await #expect(throws: LimenError.encryption(.noKey)) { try await client.user.decrypt(ciphertext: field) }
    }

    @Test("two users on one device have separate keys: neither reads the other's values")
    func separateUsers() async throws {
        let store = OpenStore()
        let alice = try await signedInClient("alice", store: store)
        let aliceField = try await alice.user.encrypt(plaintext: "alice's secret")
        await alice.signOut()
        let bob = try await signedInClient("bob", store: store)
        let bobField = try await bob.user.encrypt(plaintext: "bob's secret")
        await #expect(throws: LimenError.encryption(.wrongKeyID(try CompactJWE(aliceField).keyID))) {
            try await bob.user.decrypt(ciphertext: aliceField)
        }
        #expect(await store.fieldKeys.count == 2)
        await bob.signOut()
        let aliceAgain = try await signedInClient("alice", store: store)
        #expect(try await aliceAgain.user.decrypt(ciphertext: aliceField) == "alice's secret")
        await #expect(throws: LimenError.encryption(.wrongKeyID(try CompactJWE(bobField).keyID))) {
            try await aliceAgain.user.decrypt(ciphertext: bobField)
        }
    }
}
