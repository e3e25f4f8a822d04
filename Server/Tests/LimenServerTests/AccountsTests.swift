import Foundation
import Testing

@testable import LimenServer

@Suite("Password hashing (scrypt)")
struct PasswordHasherTests {
    private let hasher = PasswordHasher(parameters: .testing)

    @Test("RFC 7914 §12: scrypt(\"password\", \"NaCl\", N=1024, r=8, p=16) verifies through the PHC encoding")
    func rfc7914KnownAnswer() async {
        // The first 32 bytes of the RFC's 64-byte output (scrypt's output is a prefix-stable PBKDF2 stream).
        let expected = Data([
            0xfd, 0xba, 0xbe, 0x1c, 0x9d, 0x34, 0x72, 0x00, 0x78, 0x56, 0xe7, 0x19, 0x0d, 0x01, 0xe9, 0xfe,
            0x7c, 0x6a, 0xd7, 0xcb, 0xc8, 0x23, 0x78, 0x30, 0xe7, 0x73, 0x76, 0x63, 0x4b, 0x37, 0x31, 0x62,
        ])
        let salt = Data("NaCl".utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let hash = expected.base64EncodedString().replacingOccurrences(of: "=", with: "")
        let encoded = "$scrypt$ln=10,r=8,p=16$\(salt)$\(hash)"
        #expect(await hasher.verify("password", against: encoded))
        #expect(!(await hasher.verify("Password", against: encoded)))
    }

    @Test("a hash carries its parameters and a fresh salt, verifies its password and no other")
    func hashAndVerify() async throws {
        let first = try await hasher.hash("correct horse battery staple")
        let second = try await hasher.hash("correct horse battery staple")
        #expect(first.hasPrefix("$scrypt$ln=10,r=8,p=1$"))
        #expect(first != second, "each hash has its own salt")
        #expect(!first.contains("correct horse"))
        #expect(await hasher.verify("correct horse battery staple", against: first))
        #expect(await hasher.verify("correct horse battery staple", against: second))
        #expect(!(await hasher.verify("correct horse battery stapler", against: first)))
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
    func malformed(_ encoded: String) async {
        #expect(!(await hasher.verify("password", against: encoded)))
    }
}

@Suite("Accounts")
struct AccountsTests {
    private let clock = TestClock()

    private func withAccounts(_ body: (Accounts, any Store) async throws -> Void) async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let clock = clock
        do {
            try await body(
                Accounts(store: store, hasher: PasswordHasher(parameters: .testing), now: { clock.now }), store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test("sign-up normalises the email and stores only a hash; sign-in accepts any case of the email")
    func signUpThenSignIn() async throws {
        try await withAccounts { accounts, store in
            let user = try await accounts.signUp(
                email: "  Ada@Example.COM ", password: "analytical engine", name: "Ada")
            #expect(user.email == "ada@example.com")
            #expect(user.name == "Ada")
            #expect(!user.emailVerified)
            let stored = try #require(try await store.user(id: user.id))
            #expect(stored == user)
            #expect(stored.passwordHash?.hasPrefix("$scrypt$") == true)
            #expect(stored.passwordHash?.contains("analytical") == false)
            #expect(try await accounts.signIn(email: "ADA@example.com", password: "analytical engine") == user)
        }
    }

    @Test("a wrong password and an unknown email are the same error")
    func invalidCredentials() async throws {
        try await withAccounts { accounts, _ in
            _ = try await accounts.signUp(email: "ada@example.com", password: "analytical engine", name: nil)
            await #expect(throws: AccountError.invalidCredentials) {
                try await accounts.signIn(email: "ada@example.com", password: "difference engine")
            }
            await #expect(throws: AccountError.invalidCredentials) {
                try await accounts.signIn(email: "grace@example.com", password: "analytical engine")
            }
        }
    }

    @Test("a second account with the same email, in any case, is refused")
    func emailTaken() async throws {
        try await withAccounts { accounts, store in
            _ = try await accounts.signUp(email: "ada@example.com", password: "analytical engine", name: nil)
            await #expect(throws: AccountError.emailTaken) {
                try await accounts.signUp(email: "ADA@example.com", password: "another password", name: nil)
            }
            #expect(try await store.users().count == 1)
        }
    }

    @Test(
        "sign-up refuses an implausible email or a weak password, storing nothing",
        arguments: [
            ("ada", "analytical engine", "accounts.invalid_email"),
            ("ada@localhost", "analytical engine", "accounts.invalid_email"),
            ("a da@example.com", "analytical engine", "accounts.invalid_email"),
            ("@example.com", "analytical engine", "accounts.invalid_email"),
            ("ada@example.com", "short", "accounts.weak_password"),
            ("ada@example.com", String(repeating: "x", count: 1025), "accounts.weak_password"),
            ("ada@example.com", "ADA@example.com", "accounts.weak_password"),
        ]
    )
    func refusedSignUp(_ email: String, _ password: String, _ code: String) async throws {
        try await withAccounts { accounts, store in
            do {
                _ = try await accounts.signUp(email: email, password: password, name: nil)
                Issue.record("accepted \(email)")
            } catch let error as AccountError {
                #expect(error.code == code)
            }
            #expect(try await store.users().isEmpty)
        }
    }

    @Test("five failures lock the email even for the right password; after the lock it works and the count restarts")
    func lockout() async throws {
        try await withAccounts { accounts, _ in
            _ = try await accounts.signUp(email: "ada@example.com", password: "analytical engine", name: nil)
            for _ in 1...5 {
                await #expect(throws: AccountError.invalidCredentials) {
                    try await accounts.signIn(email: "ada@example.com", password: "wrong password")
                }
            }
            await #expect(throws: AccountError.locked(retryAfter: 30)) {
                try await accounts.signIn(email: "ada@example.com", password: "analytical engine")
            }
            clock.advance(by: 31)
            _ = try await accounts.signIn(email: "Ada@example.com", password: "analytical engine")
            await #expect(throws: AccountError.invalidCredentials) {
                try await accounts.signIn(email: "ada@example.com", password: "wrong password")
            }
        }
    }

    @Test("an email without an account is locked the same way, so a lock tells nothing about accounts")
    func lockoutWithoutAccount() async throws {
        try await withAccounts { accounts, _ in
            for _ in 1...5 {
                await #expect(throws: AccountError.invalidCredentials) {
                    try await accounts.signIn(email: "nobody@example.com", password: "guess")
                }
            }
            await #expect(throws: AccountError.locked(retryAfter: 30)) {
                try await accounts.signIn(email: "nobody@example.com", password: "guess")
            }
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

    @Test("the sweep forgets failures a day old, but not a lock still running")
    func sweep() async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try await store.recordSignInFailure(key: "old", now: start)
        _ = try await store.recordSignInFailure(key: "locked", now: start)
        try await store.lockSignIn(key: "locked", until: start.addingTimeInterval(90_000))
        _ = try await store.recordSignInFailure(key: "recent", now: start.addingTimeInterval(80_000))
        let sweeper = ExpirySweeper(store: store, now: { start.addingTimeInterval(86_401) })
        #expect(await sweeper.sweepOnce() == 1)
        #expect(try await store.recordSignInFailure(key: "old", now: start) == 1)
        #expect(try await store.recordSignInFailure(key: "locked", now: start) == 2)
        #expect(try await store.recordSignInFailure(key: "recent", now: start) == 2)
        await store.close()
    }
}
