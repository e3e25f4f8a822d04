import Foundation
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Passkey store: credentials once per ID, counters moved by one use at a time, gone with their user")
struct PasskeyStoreTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A credential of `user` with ID `id`.
    private static func credential(_ id: UInt8, of user: String, handle: Data) -> PasskeyCredentialRecord {
        PasskeyCredentialRecord(
            credentialID: Data([id, 1, 2, 3]), userID: user, userHandle: handle, publicKey: Data([0xa5, id]),
            signCount: 7, isBackupEligible: true, isBackedUp: false, name: "Key \(id)",
            createdAt: now.addingTimeInterval(TimeInterval(id)))
    }

    @Test(
        "a user's handle is made once; credentials read back in order; an ID is taken once, by anyone",
        arguments: StoreUnderTest.allCases)
    func credentials(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { store in
            for user in ["ada", "bob"] {
                try await store.insertUserIfAbsent(
                    UserRecord(id: user, email: "\(user)@example.com", createdAt: Self.now))
            }
            let handle = try await store.passkeyUserHandle(userID: "ada", candidate: Data([1]))
            #expect(handle == Data([1]))
            #expect(try await store.passkeyUserHandle(userID: "ada", candidate: Data([2])) == handle, "kept")
            let first = Self.credential(1, of: "ada", handle: handle)
            let second = Self.credential(2, of: "ada", handle: handle)
            #expect(try await store.insertPasskeyCredential(second))
            #expect(try await store.insertPasskeyCredential(first))
            #expect(try await store.passkeyCredentials(userID: "ada") == [first, second])
            var taken = first
            taken.userID = "bob"
            #expect(try await !store.insertPasskeyCredential(taken))
            #expect(try await store.passkeyCredentials(userID: "bob").isEmpty)
            #expect(try await store.passkeyCredential(id: first.credentialID) == first)
            #expect(try await store.passkeyCredential(id: Data([9])) == nil)
        }
    }

    @Test(
        "a use moves the counter from the one read only; rename and remove are the owner's; the user takes them along",
        arguments: StoreUnderTest.allCases)
    func useRenameRemove(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { store in
            try await store.insertUserIfAbsent(UserRecord(id: "ada", email: "ada@example.com", createdAt: Self.now))
            let credential = Self.credential(1, of: "ada", handle: Data([1]))
            let id = credential.credentialID
            #expect(try await store.insertPasskeyCredential(credential))
            let later = Self.now.addingTimeInterval(60)
            #expect(
                try await store.recordPasskeyUse(
                    id: id, previousSignCount: 7, signCount: 8, isBackedUp: true, at: later))
            #expect(
                try await !store.recordPasskeyUse(
                    id: id, previousSignCount: 7, signCount: 9, isBackedUp: true, at: later))
            let used = try #require(try await store.passkeyCredential(id: id))
            #expect((used.signCount, used.isBackedUp, used.lastUsedAt) == (8, true, later))
            #expect(try await store.renamePasskeyCredential(id: id, userID: "bob", name: "Mine now") == nil)
            let renamed = try await store.renamePasskeyCredential(id: id, userID: "ada", name: "Phone")
            #expect(renamed?.name == "Phone")
            #expect(try await store.passkeyCredential(id: id) == renamed, "the answer is the row as stored")
            #expect(try await !store.deletePasskeyCredential(id: id, userID: "bob"))
            #expect(try await store.deletePasskeyCredential(id: id, userID: "ada"))
            #expect(try await store.passkeyCredential(id: id) == nil)
            #expect(try await store.insertPasskeyCredential(credential))
            #expect(try await store.deleteUser(id: "ada"))
            #expect(try await store.passkeyCredential(id: id) == nil)
            try await store.insertUserIfAbsent(UserRecord(id: "ada", email: "ada@example.com", createdAt: Self.now))
            #expect(try await store.passkeyUserHandle(userID: "ada", candidate: Data([3])) == Data([3]), "a new handle")
        }
    }
}
