import Crypto
import Foundation
import LimenTestSupport
import NIOConcurrencyHelpers
import SQLiteNIO
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Password sign-in (throttled)")
struct PasswordSignInTests {
    private static let password = "analytical engine"
    private static let attacker = "198.51.100.66"
    private static let owner = "203.0.113.7"

    /// A store with Ada's account, and the sign-in over it with cheap hashing, a settable clock and a recording one.
    private struct Fixture {
        let signIn: PasswordSignIn
        let store: SQLiteStore
        let clock: TestNow
        let sleeps: TestClock
    }

    private func withFixture(
        masterKey: MasterKey = MasterKey(key: SymmetricKey(size: .bits256)),
        inFlight: Int = 100,
        _ body: (Fixture) async throws -> Void
    ) async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let clock = TestNow()
        let sleeps = TestClock()
        // Room for the parallel tests' 19 attempts from one address (an address holds a quarter of the places).
        let hasher = PasswordHasher(
            parameters: .testing, queue: PasswordHashingQueue(limits: .init(concurrency: 2, waiting: 78)))
        let throttle = SignInThrottle(
            store: store, keys: DerivedKeys(masterKey: masterKey), lockout: SignInLockout(),
            slowdown: SignInSlowdown(), inFlight: InFlightLimit(maximum: inFlight), clock: sleeps,
            now: { clock.now })
        do {
            _ = try await Accounts(store: store, hasher: hasher, now: { clock.now })
                .signUp(email: "ada@example.com", password: Self.password, name: "Ada", origin: RequestOrigin())
            try await body(
                Fixture(
                    signIn: PasswordSignIn(store: store, hasher: hasher, throttle: throttle), store: store,
                    clock: clock, sleeps: sleeps))
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test("the right password signs in with any case of the email; a wrong one and an unknown email are one error")
    func signIn() async throws {
        try await withFixture { fixture in
            let user = try await fixture.signIn.signIn(
                email: " ADA@example.com", password: Self.password, from: RequestOrigin(ip: Self.owner))
            #expect(user.email == "ada@example.com")
            await #expect(throws: AccountError.invalidCredentials) {
                try await fixture.signIn.signIn(
                    email: "ada@example.com", password: "difference", from: RequestOrigin(ip: Self.owner))
            }
            await #expect(throws: AccountError.invalidCredentials) {
                try await fixture.signIn.signIn(
                    email: "grace@example.com", password: Self.password, from: RequestOrigin(ip: Self.owner))
            }
        }
    }

    /// Signs in `times` times with a wrong password, each refused as invalid credentials.
    private func fail(_ fixture: Fixture, _ email: String, times: Int, from address: String) async {
        for _ in 1...times {
            await #expect(throws: AccountError.invalidCredentials) {
                try await fixture.signIn.signIn(email: email, password: "wrong", from: RequestOrigin(ip: address))
            }
        }
    }

    @Test(
        "five failures lock an email for that address even for the right password, whether or not it has an account",
        arguments: ["ada@example.com", "nobody@example.com"])
    func lockout(_ email: String) async throws {
        try await withFixture { fixture in
            await fail(fixture, email, times: 5, from: Self.owner)
            await #expect(throws: AccountError.locked(retryAfter: 30)) {
                try await fixture.signIn.signIn(
                    email: email, password: Self.password, from: RequestOrigin(ip: Self.owner))
            }
        }
    }

    @Test("finding 12: failures from addresses of one IPv6 /64 lock the whole /64; another /64 still signs in")
    func lockoutPerIPv6Network() async throws {
        try await withFixture { fixture in
            for host in 1...5 {
                await fail(fixture, "ada@example.com", times: 1, from: "2001:db8:66:1::\(host)")
            }
            await #expect(throws: AccountError.locked(retryAfter: 30)) {
                try await fixture.signIn.signIn(
                    email: "ada@example.com", password: Self.password, from: RequestOrigin(ip: "2001:db8:66:1:abcd::9"))
            }
            _ = try await fixture.signIn.signIn(
                email: "ada@example.com", password: Self.password, from: RequestOrigin(ip: "2001:db8:66:2::1"))
        }
    }

    @Test("once the lock ends the right password signs in, and the count starts again")
    func afterLock() async throws {
        try await withFixture { fixture in
            await fail(fixture, "ada@example.com", times: 5, from: Self.owner)
            fixture.clock.advance(by: 31)
            _ = try await fixture.signIn.signIn(
                email: "Ada@example.com", password: Self.password, from: RequestOrigin(ip: Self.owner))
            await fail(fixture, "ada@example.com", times: 4, from: Self.owner)
        }
    }

    @Test("19 parallel wrong sign-ins get at most five guesses; the right password after them is refused while locked")
    func parallelGuesses() async throws {
        try await withFixture { fixture in
            let outcomes = await withTaskGroup(of: String.self) { group in
                for _ in 1...19 {
                    group.addTask {
                        do {
                            _ = try await fixture.signIn.signIn(
                                email: "ada@example.com", password: "wrong", from: RequestOrigin(ip: Self.attacker))
                            return "signed in"
                        } catch let error as AccountError {
                            return error.code
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "accounts.invalid_credentials" }.count == 5, "\(outcomes)")
            #expect(outcomes.filter { $0 == "accounts.locked" }.count == 14, "\(outcomes)")
            await #expect(throws: AccountError.locked(retryAfter: 30)) {
                try await fixture.signIn.signIn(
                    email: "ada@example.com", password: Self.password, from: RequestOrigin(ip: Self.attacker))
            }
        }
    }

    @Test("an attacker failing from one address is locked there; the owner at another address still signs in, later")
    func ownerNotLockedOut() async throws {
        try await withFixture { fixture in
            await fail(fixture, "ada@example.com", times: 5, from: Self.attacker)
            for _ in 1...20 {
                await #expect(throws: AccountError.self) {
                    try await fixture.signIn.signIn(
                        email: "ada@example.com", password: "wrong", from: RequestOrigin(ip: Self.attacker))
                }
            }
            for address in (1...10).map({ "192.0.2.\($0)" }) {
                _ = try? await fixture.signIn.signIn(
                    email: "ada@example.com", password: "wrong", from: RequestOrigin(ip: address))
            }
            let user = try await fixture.signIn.signIn(
                email: "ada@example.com", password: Self.password, from: RequestOrigin(ip: Self.owner))
            #expect(user.email == "ada@example.com")
            // Past the tenth attempt from anywhere (the locked ones are not counted), each waited: five guessers and the
            // owner.
            #expect(fixture.sleeps.recorded.count == 6)
            #expect(fixture.sleeps.recorded.allSatisfy { $0 > .zero && $0 <= .seconds(8) })
            await #expect(throws: AccountError.locked(retryAfter: 30)) {
                try await fixture.signIn.signIn(
                    email: "ada@example.com", password: Self.password, from: RequestOrigin(ip: Self.attacker))
            }
        }
    }

    @Test("the stored counter keys are HMACs under the master key: not SHA-256 of the email, not alike across keys")
    func keyedCounters() async throws {
        var keysByMaster: [[String]] = []
        for _ in 1...2 {
            try await withFixture { fixture in
                _ = try? await fixture.signIn.signIn(
                    email: "ada@example.com", password: "wrong", from: RequestOrigin(ip: Self.owner))
                let rows = try await fixture.store.query("SELECT key FROM sign_in_failures ORDER BY key")
                keysByMaster.append(rows.compactMap { $0.column("key")?.string })
            }
        }
        let plain = ["ada@example.com", "\(Self.owner)\nada@example.com", "email\nada@example.com"].map {
            SHA256.hash(data: Data($0.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        #expect(keysByMaster.allSatisfy { $0.count == 2 })
        // Not the address itself (a check for "ada" alone failed one run in twenty: hex keys hold "ada" by chance).
        #expect(keysByMaster.joined().allSatisfy { !plain.contains($0) && !$0.contains("ada@example.com") })
        #expect(Set(keysByMaster[0]).isDisjoint(with: keysByMaster[1]))
    }

    @Test("at most two attempts per email and address are in flight; a third is refused until one ends")
    func inFlightLimit() {
        let limit = InFlightLimit(maximum: SignInThrottle.maximumInFlight)
        #expect(limit.enter("k"))
        #expect(limit.enter("k"))
        #expect(!limit.enter("k"))
        #expect(limit.enter("other"))
        limit.leave("k")
        #expect(limit.enter("k"))
    }
}
