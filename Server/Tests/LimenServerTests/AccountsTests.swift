import Dispatch
import Foundation
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Password hashing (scrypt)")
struct PasswordHasherTests {
    private let hasher = PasswordHasher(parameters: .testing)

    @Test("RFC 7914 §12: scrypt(\"password\", \"NaCl\", N=1024, r=8, p=16) verifies through the PHC encoding")
    func rfc7914KnownAnswer() async throws {
        // The first 32 bytes of the RFC's 64-byte output (scrypt's output is a prefix-stable PBKDF2 stream).
        let expected = Data([
            0xfd, 0xba, 0xbe, 0x1c, 0x9d, 0x34, 0x72, 0x00, 0x78, 0x56, 0xe7, 0x19, 0x0d, 0x01, 0xe9, 0xfe,
            0x7c, 0x6a, 0xd7, 0xcb, 0xc8, 0x23, 0x78, 0x30, 0xe7, 0x73, 0x76, 0x63, 0x4b, 0x37, 0x31, 0x62,
        ])
        let salt = Data("NaCl".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let hash = expected.base64EncodedString().replacingOccurrences(of: "=", with: "")
        let encoded = "$scrypt$ln=10,r=8,p=16$\(salt)$\(hash)"
        #expect(try await hasher.verify("password", against: encoded))
        #expect(!(try await hasher.verify("Password", against: encoded)))
    }

    @Test("a hash carries its parameters and a fresh salt, verifies its password and no other")
    func hashAndVerify() async throws {
        let first = try await hasher.hash("correct horse battery staple")
        let second = try await hasher.hash("correct horse battery staple")
        #expect(first.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(first != second, "each hash has its own salt")
        #expect(!first.contains("correct horse"))
        #expect(try await hasher.verify("correct horse battery staple", against: first))
        #expect(try await hasher.verify("correct horse battery staple", against: second))
        #expect(!(try await hasher.verify("correct horse battery stapler", against: first)))
    }

    @Test("a full hashing queue refuses at once with busy; a hash that waited runs once a place frees")
    func boundedQueue() async throws {
        let queue = PasswordHashingQueue(limits: .init(concurrency: 1, waiting: 1))
        let hasher = PasswordHasher(parameters: .testing, queue: queue)
        let stored = try await hasher.hash("correct horse battery staple")
        let (started, didStart) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        let running = Task {
            try await queue.run {
                didStart.yield()
                release.wait()
            }
        }
        for await _ in started { break }
        let waiting = Task { try await hasher.hash("correct horse battery staple") }
        while !queue.isFull(for: nil) { await Task.yield() }
        await #expect(throws: AccountError.busy(retryAfter: 1)) {
            try await hasher.verify("correct horse battery staple", against: stored)
        }
        release.signal()
        try await running.value
        #expect(try await hasher.verify("correct horse battery staple", against: try await waiting.value))
    }

    @Test("finding 4: one address holding its share of the hashing queue is refused, another address still hashes")
    func sharePerAddress() async throws {
        let queue = PasswordHashingQueue(limits: .init(concurrency: 4, waiting: 4))
        #expect(queue.limits.perClientAddress == 2)
        let hasher = PasswordHasher(parameters: .testing, queue: queue)
        let other = try await Self.holdingShare(of: "198.51.100.66", in: queue) {
            #expect(queue.isFull(for: "198.51.100.66"))
            #expect(queue.isFull(for: "::ffff:198.51.100.66"), "an IPv4-mapped address is the IPv4 address")
            #expect(!queue.isFull(for: "203.0.113.7"))
            await #expect(throws: AccountError.busy(retryAfter: 1)) {
                try await hasher.hash("correct horse battery staple", for: "198.51.100.66")
            }
            let other = try await hasher.hash("correct horse battery staple", for: "203.0.113.7")
            #expect(try await hasher.verify("correct horse battery staple", against: other, for: "203.0.113.7"))
            #expect(try await hasher.verify("correct horse battery staple", against: other), "work of nobody's passes")
            return other
        }
        #expect(try await hasher.verify("correct horse battery staple", against: other, for: "198.51.100.66"))
    }

    @Test("finding 4: a changed password and a guest's linked one hash within their address's share, as a sign-up does")
    func accountChangesShare() async throws {
        let queue = PasswordHashingQueue(limits: .init(concurrency: 4, waiting: 4))
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let hasher = PasswordHasher(parameters: .testing, queue: queue)
        let accounts = Accounts(store: store, hasher: hasher, now: Date.init)
        let user = try await accounts.signUp(
            email: "ada@example.com", password: "correct horse battery", name: nil, origin: RequestOrigin())
        let change = AccountChanges(password: "a brand new password")
        try await Self.holdingShare(of: "198.51.100.66", in: queue) {
            await #expect(throws: AccountError.busy(retryAfter: 1)) {
                try await accounts.update(id: user.id, change, from: "198.51.100.66", origin: RequestOrigin())
            }
            await #expect(throws: AccountError.busy(retryAfter: 1)) {
                try await accounts.checkedCredentials(
                    email: "grace@example.com", password: "a long enough password", name: nil, from: "198.51.100.66")
            }
            let updated = try await accounts.update(id: user.id, change, from: "203.0.113.7", origin: RequestOrigin())
            #expect(updated != nil, "another address still changes its password")
        }
        await store.close()
    }

    /// Runs `body` while `address` holds its whole share of `queue`'s places, then frees them.
    private static func holdingShare<Value>(
        of address: String,
        in queue: PasswordHashingQueue,
        _ body: () async throws -> Value
    ) async throws -> Value {
        let (started, didStart) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        let holders = (0..<queue.limits.perClientAddress).map { _ in
            Task {
                try await queue.run(for: address) {
                    didStart.yield()
                    release.wait()
                }
            }
        }
        var running = 0
        for await _ in started {
            running += 1
            if running == holders.count { break }
        }
        let result: Result<Value, any Error>
        do {
            result = .success(try await body())
        } catch {
            result = .failure(error)
        }
        for _ in holders { release.signal() }
        for holder in holders { try await holder.value }
        return try result.get()
    }

    @Test(
        "an address's share of the hashing queue is a quarter of its places, at least one",
        arguments: [(1, 0, 1), (1, 4, 1), (2, 8, 2), (4, 16, 5)])
    func shareSize(concurrency: Int, waiting: Int, share: Int) {
        #expect(PasswordHashingQueue.Limits(concurrency: concurrency, waiting: waiting).perClientAddress == share)
    }

    @Test("OWASP parameters are the default: N = 2^17, r = 8, p = 1")
    func owaspDefault() {
        #expect(PasswordHasher().parameters == PasswordHasher.Parameters(logN: 17, blockSize: 8, parallelism: 1))
    }

    @Test(
        "a malformed or out-of-range encoding never verifies",
        arguments: [
            "", "plaintext", "$scrypt$ln=10,r=8,p=1$c2FsdA", "$bcrypt$ln=10,r=8,p=1$c2FsdA$aGFzaA",
            "$scrypt$ln=99,r=8,p=1$c2FsdA$" + String(repeating: "A", count: 43),
            "$scrypt$ln=10,r=8$c2FsdA$" + String(repeating: "A", count: 43),
            "$scrypt$ln=10,r=8,p=1$c2FsdA$aGFzaA",
            "$scrypt$ln=10,r=8,p=1$!!$" + String(repeating: "A", count: 43),
        ]
    )
    func malformed(_ encoded: String) async throws {
        #expect(!(try await hasher.verify("password", against: encoded)))
    }
}

@Suite("Accounts")
struct AccountsTests {
    private func withAccounts(_ body: (Accounts, any Store) async throws -> Void) async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        do {
            let clock = TestNow()
            try await body(
                Accounts(store: store, hasher: PasswordHasher(parameters: .testing), now: { clock.now }), store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test("sign-up normalises the email and stores only a hash")
    func signUp() async throws {
        try await withAccounts { accounts, store in
            let user = try await accounts.signUp(
                email: "  Ada@Example.COM ", password: "analytical engine", name: "Ada", origin: RequestOrigin())
            #expect(user.email == "ada@example.com")
            #expect(user.name == "Ada")
            #expect(!user.emailVerified)
            let stored = try #require(try await store.user(id: user.id))
            #expect(stored == user)
            #expect(stored.passwordHash?.hasPrefix("$scrypt$") == true)
            #expect(stored.passwordHash?.contains("analytical") == false)
        }
    }

    @Test("a second account with the same email, in any case, is refused")
    func emailTaken() async throws {
        try await withAccounts { accounts, store in
            _ = try await accounts.signUp(
                email: "ada@example.com", password: "analytical engine", name: nil, origin: RequestOrigin())
            await #expect(throws: AccountError.emailTaken) {
                try await accounts.signUp(
                    email: "ADA@example.com", password: "another password", name: nil, origin: RequestOrigin())
            }
            #expect(try await store.users().count == 1)
        }
    }

    @Test(
        "sign-up refuses an implausible email, a weak password or an oversized field, storing nothing",
        arguments: [
            ("ada", "analytical engine", nil, "accounts.invalid_email"),
            ("ada@localhost", "analytical engine", nil, "accounts.invalid_email"),
            ("a da@example.com", "analytical engine", nil, "accounts.invalid_email"),
            ("@example.com", "analytical engine", nil, "accounts.invalid_email"),
            (String(repeating: "a", count: 243) + "@example.com", "analytical engine", nil, "accounts.invalid_email"),
            ("ada@example.com", "short", nil, "accounts.weak_password"),
            ("ada@example.com", String(repeating: "x", count: 1025), nil, "accounts.weak_password"),
            ("ada@example.com", "ADA@example.com", nil, "accounts.weak_password"),
            ("ada@example.com", "analytical engine", String(repeating: "n", count: 60_000), "accounts.field_too_long"),
            ("ada@example.com", "analytical engine", String(repeating: "n", count: 257), "accounts.field_too_long"),
            (
                "ada@example.com", "analytical engine", "e" + String(repeating: "\u{301}", count: 2000),
                "accounts.field_too_long"
            ),
        ] as [(String, String, String?, String)]
    )
    func refusedSignUp(_ email: String, _ password: String, _ name: String?, _ code: String) async throws {
        try await withAccounts { accounts, store in
            do {
                _ = try await accounts.signUp(email: email, password: password, name: name, origin: RequestOrigin())
                Issue.record("accepted \(email)")
            } catch let error as AccountError {
                #expect(error.code == code)
            }
            #expect(try await store.users().isEmpty)
        }
    }

    @Test("a name of 256 characters is kept; a change to a longer one is refused and leaves the name as it was")
    func nameLimit() async throws {
        try await withAccounts { accounts, store in
            let longest = String(repeating: "n", count: Accounts.maximumNameLength)
            let user = try await accounts.signUp(
                email: "ada@example.com", password: "analytical engine", name: longest, origin: RequestOrigin())
            #expect(user.name == longest)
            await #expect(throws: AccountError.fieldTooLong(field: "name", maximum: 256)) {
                try await accounts.update(
                    id: user.id, AccountChanges(name: .some(longest + "n")), origin: RequestOrigin())
            }
            #expect(try await store.user(id: user.id)?.name == longest)
        }
    }
}

@Suite("Sign-in lockout policy")
struct SignInLockoutTests {
    @Test(
        "the lock starts at the fifth failure, doubles with each further one and stops at 15 minutes",
        arguments: [(1, nil), (4, nil), (5, 30), (6, 60), (7, 120), (9, 480), (10, 900), (64, 900)] as [(Int, Double?)]
    )
    func durations(_ failures: Int, _ expected: Double?) {
        #expect(SignInLockout().lockDuration(afterFailures: failures) == expected)
    }

    @Test(
        "the slow-down starts after ten attempts from anywhere, doubles from 1 s and stops at 8 s",
        arguments: [(1, nil), (10, nil), (11, 1), (12, 2), (14, 8), (99, 8)] as [(Int, Int?)]
    )
    func slowdown(_ attempts: Int, _ seconds: Int?) {
        #expect(SignInSlowdown().delay(afterAttempts: attempts) == seconds.map { .seconds($0) })
    }

    @Test("the sweep forgets attempts a day old, but not a lock still running")
    func sweep() async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let long = SignInLockout(threshold: 1, baseDuration: 90_000, maximumDuration: 90_000)
        _ = try await store.countSignInAttempt(key: "old", now: start, lockout: nil)
        _ = try await store.countSignInAttempt(key: "locked", now: start, lockout: long)
        _ = try await store.countSignInAttempt(key: "recent", now: start.addingTimeInterval(80_000), lockout: nil)
        let sweeper = ExpirySweeper(store: store, now: { start.addingTimeInterval(86_401) })
        #expect(await sweeper.sweepOnce() == 1)
        #expect(try await store.countSignInAttempt(key: "old", now: start, lockout: nil) == .admitted(attempts: 1))
        #expect(
            try await store.countSignInAttempt(key: "locked", now: start, lockout: nil)
                == .locked(until: start.addingTimeInterval(90_000)))
        #expect(try await store.countSignInAttempt(key: "recent", now: start, lockout: nil) == .admitted(attempts: 2))
        await store.close()
    }
}
