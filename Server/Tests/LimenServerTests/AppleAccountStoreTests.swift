import Crypto
import Foundation
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Apple account store: Apple's facts per user, its refresh token sealed, gone with the user")
struct AppleAccountStoreTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// Runs `body` on a migrated store of `kind` holding the user `ada`, removed after.
    private static func withStore(_ kind: StoreUnderTest, _ body: (any Store) async throws -> Void) async throws {
        try await kind.withStore { store in
            try await store.insertUserIfAbsent(UserRecord(id: "ada", email: "ada@example.com", createdAt: now))
            try await body(store)
        }
    }

    @Test(
        "a record reads back; a later one without a token keeps it; a forgotten token goes; so does the user's row",
        arguments: StoreUnderTest.allCases)
    func saveAndRead(_ kind: StoreUnderTest) async throws {
        try await Self.withStore(kind) { store in
            #expect(try await store.appleAccount(userID: "ada") == nil)
            let first = AppleAccountRecord(
                userID: "ada", subject: "001.apple", isPrivateEmail: true, realUserStatus: 2,
                sealedRefreshToken: Data([1, 2, 3]), refreshTokenClientID: "com.example.app", updatedAt: Self.now)
            try await store.saveAppleAccount(first)
            #expect(try await store.appleAccount(userID: "ada") == first)
            let later = AppleAccountRecord(
                userID: "ada", subject: "001.apple", isPrivateEmail: false, realUserStatus: nil,
                updatedAt: Self.now.addingTimeInterval(60))
            try await store.saveAppleAccount(later)
            var expected = later
            expected.sealedRefreshToken = first.sealedRefreshToken
            expected.refreshTokenClientID = first.refreshTokenClientID
            #expect(try await store.appleAccount(userID: "ada") == expected)
            // Forgetting the token keeps the facts.
            try await store.forgetAppleRefreshToken(userID: "ada")
            #expect(try await store.appleAccount(userID: "ada") == later)
            #expect(try await store.deleteUser(id: "ada"))
            #expect(try await store.appleAccount(userID: "ada") == nil)
        }
    }

    @Test("a sealed refresh token holds no clear text, opens for its user only, and not under another master key")
    func sealedRefreshToken() throws {
        let keys = DerivedKeys(masterKey: MasterKey(key: .init(size: .bits256)))
        let seal = AppleRefreshTokenSeal(keys: keys)
        let token = "r.apple-refresh-token-0123456789"
        let sealed = try seal.seal(token, userID: "ada")
        #expect(sealed.range(of: Data(token.utf8)) == nil)
        #expect(seal.open(sealed, userID: "ada") == token)
        #expect(seal.open(sealed, userID: "bob") == nil)
        let other = AppleRefreshTokenSeal(keys: DerivedKeys(masterKey: MasterKey(key: .init(size: .bits256))))
        #expect(other.open(sealed, userID: "ada") == nil)
    }

    @Test(
        "upgrading a store from version 18 keeps its users and gives them Apple accounts",
        arguments: [StoreUnderTest.sqliteFile] + (PostgresTestDatabase.unavailableReason == nil ? [.postgres] : []))
    func upgradeFrom18(_ kind: StoreUnderTest) async throws {
        try await kind.withStore(migratedTo: 18) { store in
            try await store.insertUserIfAbsent(UserRecord(id: "ada", email: "ada@example.com", createdAt: Self.now))
            try await store.migrate()
            #expect(try await store.user(id: "ada")?.email == "ada@example.com")
            let record = AppleAccountRecord(
                userID: "ada", subject: "001.apple", isPrivateEmail: false, realUserStatus: 1, updatedAt: Self.now)
            try await store.saveAppleAccount(record)
            #expect(try await store.appleAccount(userID: "ada") == record)
        }
    }
}
