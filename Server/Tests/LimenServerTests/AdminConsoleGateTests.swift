import Foundation
import Testing

@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("The admin console's gate: a session, the admin role, a second factor, a fresh sign-in, in that order")
struct AdminConsoleGateTests {
    private static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A session of `subject` signed in `age` seconds ago by `methods`.
    private static func session(
        _ subject: String, age: TimeInterval = 0, methods: [AuthenticationMethod] = [.password, .multipleFactors]
    ) -> BrowserSessionRecord {
        BrowserSessionRecord(
            idHash: Data([1]), subject: subject, authTime: now - age, expiresAt: now + 3600,
            methods: AuthenticationMethods(methods))
    }

    @Test("each refusal in its order, the boundary of 15 minutes included")
    func decisions() async throws {
        try await StoreUnderTest.sqliteInMemory.withStore { store in
            let ada = UserRecord(id: "ada", email: "ada@example.com", createdAt: Self.now)
            let bob = UserRecord(id: "bob", email: "bob@example.com", createdAt: Self.now)
            try await store.insertUserIfAbsent(ada)
            try await store.insertUserIfAbsent(bob)
            let roles = AdminRoles(store: store, now: { Self.now })
            try await roles.grant(to: "ada", origin: .commandLine)
            let gate = AdminConsoleGate(roles: roles, users: store, now: { Self.now })

            #expect(try await gate.decide(session: nil) == .signedOut)
            #expect(try await gate.decide(session: Self.session("gone")) == .signedOut, "a session whose user is gone")
            #expect(try await gate.decide(session: Self.session("bob")) == .notAdmin(bob))
            #expect(
                try await gate.decide(session: Self.session("bob", age: 3600, methods: [.password])) == .notAdmin(bob),
                "a non-admin learns nothing more")
            #expect(
                try await gate.decide(session: Self.session("ada", methods: [.password, .oneTimePassword]))
                    == .needsSecondFactor(ada), "an email code alone is one factor")
            #expect(
                try await gate.decide(session: Self.session("ada", age: 3600, methods: [.password]))
                    == .needsSecondFactor(ada))
            #expect(try await gate.decide(session: Self.session("ada", age: AdminConsoleGate.maxAge)) == .allowed(ada))
            #expect(
                try await gate.decide(
                    session: Self.session("ada", methods: [.softwareKey, .user, .multipleFactors])) == .allowed(ada),
                "a user-verified passkey")
            #expect(
                try await gate.decide(session: Self.session("ada", age: AdminConsoleGate.maxAge + 1)) == .stale(ada))
            try await roles.revoke(from: "ada", origin: .commandLine)
            #expect(try await gate.decide(session: Self.session("ada")) == .notAdmin(ada), "a revoked role, at once")
        }
    }
}
