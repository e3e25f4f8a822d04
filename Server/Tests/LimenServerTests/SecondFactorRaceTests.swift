import Crypto
import Foundation
import LimenTestSupport
import Testing

@testable import LimenServerCore
@testable import LimenServerStorage
@testable import LimenServerWire

/// A second factor store whose reads answer what it held when ``freeze()`` was called: every check then runs as the
/// loser of a race, having read the factor before the winner recorded the same code.
private final class StaleSecondFactorStore: SecondFactorStore {
    let base: any SecondFactorStore
    private let frozen = Locked<SecondFactorRecord?>(nil)

    init(_ base: any SecondFactorStore) {
        self.base = base
    }

    /// Answers reads with the record as it is now from here on.
    func freeze(userID: String) async throws {
        let record = try await base.secondFactor(userID: userID)
        frozen.withLock { $0 = record }
    }

    func secondFactor(userID: String) async throws(StorageError) -> SecondFactorRecord? {
        if let record = frozen.withLock({ $0 }) { return record }
        return try await base.secondFactor(userID: userID)
    }

    func insertSecondFactor(_ record: SecondFactorRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    {
        try await base.insertSecondFactor(record, recording: events)
    }

    func recordTOTPStep(userID: String, step: Int64) async throws(StorageError) -> Bool {
        try await base.recordTOTPStep(userID: userID, step: step)
    }

    func replaceRecoveryCodes(userID: String, old: [Data], new: [Data]) async throws(StorageError) -> Bool {
        try await base.replaceRecoveryCodes(userID: userID, old: old, new: new)
    }

    func deleteSecondFactor(userID: String, recording events: [SecurityEventRecord]) async throws(StorageError)
        -> Bool
    {
        try await base.deleteSecondFactor(userID: userID, recording: events)
    }
}

@Suite("Second factors racing: a code recorded by another request counts as a wrong code toward the lockout")
struct SecondFactorRaceTests {
    private static let address = "203.0.113.7"
    private static let user = UserRecord(
        id: "ada", email: "ada@example.com", createdAt: Date(timeIntervalSince1970: 1_767_225_600))

    /// Ada with two-step sign-in on (her app's TOTP and recovery codes), checked through a ``StaleSecondFactorStore``.
    private struct Fixture {
        let factors: SecondFactors
        let stale: StaleSecondFactorStore
        let clock: TestNow
        let totp: TOTP
        let recoveryCodes: [RecoveryCode]
    }

    private func withFixture(_ body: (Fixture) async throws -> Void) async throws {
        let store = try await SQLiteStore.inMemory()
        do {
            try await store.migrate()
            try await store.insertUserIfAbsent(Self.user)
            let clock = TestNow()
            let keys = DerivedKeys(masterKey: MasterKey(key: SymmetricKey(size: .bits256)))
            let throttle = SignInThrottle(
                store: store, keys: keys, lockout: SignInLockout(), slowdown: SignInSlowdown(),
                inFlight: InFlightLimit(maximum: 100), clock: TestClock(), now: { clock.now })
            let stale = StaleSecondFactorStore(store)
            let factors = SecondFactors(
                store: stale, throttle: throttle, keys: keys, serviceName: { "Limen" }, now: { clock.now },
                events: SecurityEventRecorder(now: { clock.now }))
            let enrolment = try factors.newEnrolment(for: Self.user)
            let secret = try #require(factors.setup(of: enrolment, for: Self.user)?.secret)
            let totp = try TOTP(secret: try Base32.decode(secret))
            let codes = try await factors.enable(
                enrolment, for: Self.user, code: totp.code(at: clock.now), from: RequestOrigin(ip: Self.address)
            ).get()
            clock.advance(by: 30)
            try await body(
                Fixture(factors: factors, stale: stale, clock: clock, totp: totp, recoveryCodes: codes))
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// Why `result` was refused; `nil` when the code was accepted.
    private static func refusal(_ result: Result<Void, SecondFactorRefusal>) -> SecondFactorRefusal? {
        guard case .failure(let refusal) = result else { return nil }
        return refusal
    }

    /// Answers `code` with `check` (accepted), replays it up to the lockout's threshold (each refused as a wrong
    /// code, having lost the race to record it), then answers `next`, which the lockout refuses.
    private static func expectReplaysLock(
        _ code: String, then next: String, _ check: (String) async throws -> SecondFactorRefusal?
    ) async throws {
        #expect(try await check(code) == nil)
        for _ in 1...SignInLockout().threshold {
            #expect(try await check(code) == .invalidCode, "the replay loses the race to record the code")
        }
        let locked = try await check(next)
        guard case .locked? = locked else {
            Issue.record("an unused code after the replays: \(String(describing: locked))")
            return
        }
    }

    @Test("a TOTP code replayed by requests that read the factor before it was used counts toward the lockout")
    func replayedTOTP() async throws {
        try await withFixture { fixture in
            let code = fixture.totp.code(at: fixture.clock.now)
            try await fixture.stale.freeze(userID: Self.user.id)
            let next = fixture.totp.code(at: fixture.clock.now.addingTimeInterval(30))
            try await Self.expectReplaysLock(code, then: next) { code in
                Self.refusal(try await fixture.factors.checkTOTP(code, for: Self.user, from: Self.address))
            }
        }
    }

    @Test("a recovery code used by a racing request counts as a wrong code toward the lockout")
    func replayedRecoveryCode() async throws {
        try await withFixture { fixture in
            let code = try #require(fixture.recoveryCodes.first).formatted
            try await fixture.stale.freeze(userID: Self.user.id)
            let other = try #require(fixture.recoveryCodes.last).formatted
            try await Self.expectReplaysLock(code, then: other) { code in
                Self.refusal(try await fixture.factors.useRecoveryCode(code, for: Self.user, from: Self.address))
            }
        }
    }
}
