import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// `identities()`, `unlink(_:)` and `deleteAccount()` against the `limen-server` binary's `/v1/me` routes.
@Suite(
    "The account routes against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)"),
    .enabled(if: SMTPSink.unavailableReason == nil, "aiosmtpd is not installed")
)
struct LimenServerAccountRoutesTests {
    @Test("identities: password and email; the last way to sign in is never unlinked; an unknown kind is notLinked")
    func identities() async throws {
        try await AccountServer.with { fixture in
            let account = fixture.server.user
            let client = try fixture.client()
            await #expect(throws: LimenError.notSignedIn) { try await client.identities() }
            try await client.login(email: account.email, password: account.password, allowMigration: nil)
            let linked = try await client.identities()
            #expect(Set(linked.map(\.kind)) == [.password, .email])
            #expect(linked.allSatisfy { $0.subject == account.email })
            #expect(linked.allSatisfy { abs($0.createdAt.timeIntervalSinceNow) < 3600 })

            await #expect(throws: LimenError.account(.lastIdentity), "the address takes its password with it") {
                try await client.unlink(.email)
            }
            await #expect(throws: LimenError.account(.notLinked)) { try await client.unlink("apple") }
            try await client.unlink(.password)
            #expect(try await client.identities().map(\.kind) == [.email])
            await #expect(throws: LimenError.account(.lastIdentity)) { try await client.unlink(.email) }
            await #expect(throws: LimenError.account(.notLinked)) { try await client.unlink(.password) }

            let signIn = try fixture.client()
            do throws(LimenError) {
                try await signIn.login(email: account.email, password: account.password, allowMigration: nil)
                Issue.record("the unlinked password still signs in")
            } catch {
                guard case .flow(.refused) = error else { throw error }
            }
        }
    }

    @Test("deleteAccount: the account and its grant are gone, the device is signed out and its store emptied")
    func deleteAccount() async throws {
        try await AccountServer.with { fixture in
            let account = fixture.server.user
            let store = MemoryStore()
            let client = try fixture.client(store: store)
            await #expect(throws: LimenError.notSignedIn) { try await client.deleteAccount() }
            try await client.login(email: account.email, password: account.password, allowMigration: nil)
            let otherDevice = try await fixture.copy(of: store)
            let events = EventRecorder(client)

            try await client.deleteAccount()
            #expect(client.state.phase == .signedOut)
            #expect(!client.state.auth.isAuthenticated)
            #expect(client.state.user.id == nil)
            #expect(events.recorded.contains(.signedOut))
            #expect(try await store.read("default.session") == nil, "the session is gone from the store")
            let relaunched = try fixture.client(store: store)
            await relaunched.restore()
            #expect(relaunched.state.phase == .signedOut)

            #expect(try await otherDevice.refresh() == nil, "refresh ended with the account")
            #expect(otherDevice.state.phase == .expired)
            let again = try fixture.client()
            do throws(LimenError) {
                try await again.login(email: account.email, password: account.password, allowMigration: nil)
                Issue.record("the deleted account signed in")
            } catch {
                guard case .flow(.refused) = error else { throw error }
            }
        }
    }

    @Test("a guest deletes their account without a recent sign-in check")
    func guestDeletes() async throws {
        try await AccountServer.with { fixture in
            let store = MemoryStore()
            let client = try fixture.client(store: store)
            try await client.signInAnonymously()
            let otherDevice = try await fixture.copy(of: store)
            try await client.deleteAccount()
            #expect(client.state.phase == .signedOut)
            #expect(try await otherDevice.refresh() == nil)
        }
    }
}
