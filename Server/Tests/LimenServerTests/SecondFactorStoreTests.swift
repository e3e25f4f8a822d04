import Foundation
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Second factor store: turned on once, a TOTP step and a recovery code used once each, gone with the user")
struct SecondFactorStoreTests {
    private static let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// `count` distinct 32-byte hashes starting from `seed`.
    private static func hashes(_ count: Int, seed: UInt8 = 0) -> [Data] {
        (0..<count).map { Data(repeating: seed &+ UInt8($0), count: 32) }
    }

    @Test(
        "on once; steps only forward; codes replaced only from what was read; off", arguments: StoreUnderTest.allCases)
    func lifecycle(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { store in
            try await store.insertUserIfAbsent(UserRecord(id: "ada", email: "ada@example.com", createdAt: Self.now))
            #expect(try await store.secondFactor(userID: "ada") == nil)
            let record = SecondFactorRecord(
                userID: "ada", sealedTOTPSecret: Data([1, 2, 3]), lastTOTPStep: 100,
                recoveryCodeHashes: Self.hashes(10), enabledAt: Self.now)
            #expect(try await store.insertSecondFactor(record))
            var other = record
            other.sealedTOTPSecret = Data([9])
            #expect(try await !store.insertSecondFactor(other), "on already: nothing changes")
            #expect(try await store.secondFactor(userID: "ada") == record)

            #expect(try await !store.recordTOTPStep(userID: "ada", step: 100), "the same step again")
            #expect(try await !store.recordTOTPStep(userID: "ada", step: 99))
            #expect(try await store.recordTOTPStep(userID: "ada", step: 101))
            #expect(try await store.secondFactor(userID: "ada")?.lastTOTPStep == 101)

            let fewer = Array(record.recoveryCodeHashes.dropFirst())
            #expect(try await store.replaceRecoveryCodes(userID: "ada", old: record.recoveryCodeHashes, new: fewer))
            #expect(
                try await !store.replaceRecoveryCodes(userID: "ada", old: record.recoveryCodeHashes, new: fewer),
                "a second request with what the first read changes nothing")
            #expect(try await store.secondFactor(userID: "ada")?.recoveryCodeHashes == fewer)
            #expect(try await store.replaceRecoveryCodes(userID: "ada", old: fewer, new: []))
            #expect(try await store.secondFactor(userID: "ada")?.recoveryCodeHashes == [])

            #expect(try await store.deleteSecondFactor(userID: "ada"))
            #expect(try await !store.deleteSecondFactor(userID: "ada"))
            #expect(try await store.secondFactor(userID: "ada") == nil)
            #expect(try await !store.recordTOTPStep(userID: "ada", step: 200))
        }
    }

    @Test("a user's two-step sign-in is removed with the user", arguments: StoreUnderTest.allCases)
    func removedWithUser(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { store in
            try await store.insertUserIfAbsent(UserRecord(id: "bob", email: "bob@example.com", createdAt: Self.now))
            let record = SecondFactorRecord(
                userID: "bob", sealedTOTPSecret: Data([4]), recoveryCodeHashes: Self.hashes(2, seed: 7),
                enabledAt: Self.now)
            #expect(try await store.insertSecondFactor(record))
            #expect(try await store.secondFactor(userID: "bob")?.lastTOTPStep == nil)
            #expect(try await store.deleteUser(id: "bob"))
            #expect(try await store.secondFactor(userID: "bob") == nil)
        }
    }
}
