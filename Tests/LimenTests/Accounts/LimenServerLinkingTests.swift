import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// RxFireAuth's five linking cases through the SDK against the `limen-server` binary: who is signed in on the device
/// (nobody, a guest, a user with an identity) and whose credentials are entered, checked by user IDs, identities and
/// auth level after each.
@Suite(
    "Guests, linking and migration against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)"),
    .enabled(if: SMTPSink.unavailableReason == nil, "aiosmtpd is not installed")
)
struct LimenServerLinkingTests {
    let password = "a long enough password"

    @Test(
        "signInAnonymously: a guest with no identity; asked again, the same guest; replacing a user ends their session; refused when sign-up is off"
    )
    func anonymous() async throws {
        try await AccountServer.with { fixture in
            let client = try fixture.client()
            let guest = try await client.signInAnonymously()
            #expect(client.state.auth.level == .guest)
            #expect(client.state.auth.isAnonymous)
            #expect(client.state.auth.isAuthenticated)
            #expect(try await client.identities().isEmpty)
            #expect(try await client.signInAnonymously() == guest, "a guest signed in is kept, not replaced")
            #expect(try await client.refresh() != nil)
            #expect(client.state.user.id == guest.id)
            #expect(client.state.auth.level == .guest)

            let account = fixture.server.user
            let store = MemoryStore()
            let signedIn = try fixture.client(store: store)
            try await signedIn.login(email: account.email, password: account.password, allowMigration: nil)
            let accountDevice = try await fixture.copy(of: store)
            let replacing = try await signedIn.signInAnonymously()
            #expect(replacing.id != guest.id && replacing.email == nil)
            #expect(signedIn.state.auth.isAnonymous)
            #expect(try await accountDevice.refresh() == nil, "the replaced account's session was revoked")
        }
        try await AccountServer.with(settings: ["--sign-up", "disabled"]) { fixture in
            let client = try fixture.client()
            await #expect(throws: FlowError.self) { try await client.signInAnonymously() }
            do throws(FlowError) {
                try await client.signInAnonymously()
            } catch {
                #expect(error.code == "sign_up_disabled")
            }
            #expect(!client.state.auth.isAuthenticated)
        }
    }

    @Test(
        "case 1: a guest linking an address keeps its user ID and session; the level rises, on other devices at refresh"
    )
    func guestLinks() async throws {
        try await AccountServer.with { fixture in
            let store = MemoryStore()
            let client = try fixture.client(store: store)
            let guestID = try #require(try await client.signInAnonymously().id)
            let otherDevice = try await fixture.copy(of: store)
            #expect(otherDevice.state.auth.level == .guest)

            let user = try await client.linkAnonymousAccount(
                toEmail: "grace@example.com", password: password, code: fixture.mailedCode)
            #expect(user.id == guestID, "the same user: the guest's data stays where it is")
            #expect(user.email == "grace@example.com")
            #expect(client.state.auth.level == .verified, "the mailed code proved the address")
            #expect(!client.state.auth.isAnonymous)
            #expect(try await client.identities().map(\.kind).contains(.password))
            #expect(try await client.identities().allSatisfy { $0.subject == "grace@example.com" })

            #expect(otherDevice.state.auth.level == .guest, "the other device's tokens say guest until they refresh")
            #expect(try await otherDevice.refresh() != nil, "the guest's refresh token still works after the upgrade")
            #expect(otherDevice.state.user.id == guestID)
            #expect(otherDevice.state.auth.level == .verified)
            #expect(!otherDevice.state.auth.isAnonymous)

            await #expect(throws: LimenError.account(.notAnonymous)) {
                try await client.linkAnonymousAccount(
                    toEmail: "other@example.com", password: password, code: fixture.mailedCode)
            }
        }
    }

    @Test(
        "case 2: a guest logging in to another account gets migrationRequired; answered without retyping, the guest is gone"
    )
    func migration() async throws {
        try await AccountServer.with { fixture in
            let account = fixture.server.user
            let store = MemoryStore()
            let client = try fixture.client(store: store)
            let guestID = try #require(try await client.signInAnonymously().id)
            let guestDevice = try await fixture.copy(of: store)

            let typed = LoginCredentials(email: account.email, password: account.password)
            await #expect(throws: LimenError.account(.migrationRequired(typed))) {
                try await client.login(email: account.email, password: account.password, allowMigration: nil)
            }
            #expect(client.state.user.id == guestID, "nothing changed while the person decides")
            #expect(client.state.auth.isAnonymous)

            let credentials: LoginCredentials
            do throws(LimenError) {
                try await client.login(email: account.email, password: account.password, allowMigration: nil)
                Issue.record("no migration question")
                return
            } catch {
                guard case .account(.migrationRequired(let kept)) = error else { throw error }
                credentials = kept
            }
            #expect(!"\(credentials)".contains(account.password), "the description redacts the password")
            #expect(!String(reflecting: credentials).contains(account.password))

            let descriptor = try await client.login(with: credentials, allowMigration: true)
            #expect(descriptor.allowMigration == true)
            #expect(descriptor.anonymousUserID == guestID)
            #expect(descriptor.userID != guestID)
            #expect(descriptor.replacedAnonymousUser)
            #expect(client.state.user.id == descriptor.userID)
            #expect(client.state.user.email == account.email)
            #expect(client.state.auth.level != .guest && client.state.auth.level != nil)
            #expect(try await client.identities().map(\.kind).contains(.password))

            #expect(try await guestDevice.refresh() == nil, "the guest was deleted: its refresh token is dead")
            #expect(guestDevice.state.phase == .expired)
        }
    }

    @Test("a guest migrating with allowMigration: false is replaced as well, and the descriptor says false")
    func migrationWithoutData() async throws {
        try await AccountServer.with { fixture in
            let account = fixture.server.user
            let client = try fixture.client()
            let guestID = try #require(try await client.signInAnonymously().id)
            let descriptor = try await client.login(
                email: account.email, password: account.password, allowMigration: false)
            #expect(descriptor.allowMigration == false)
            #expect(descriptor.anonymousUserID == guestID)
            #expect(descriptor.replacedAnonymousUser)
            #expect(client.state.user.email == account.email)
        }
    }

    @Test(
        "email codes: a guest's code for an account is refused as migration_required, unless allowMigration was sent first"
    )
    func emailCodeMigration() async throws {
        try await AccountServer.with { fixture in
            let email = fixture.server.user.email
            let store = MemoryStore()
            let client = try fixture.client(store: store)
            let guestID = try #require(try await client.signInAnonymously().id)
            let guestDevice = try await fixture.copy(of: store)

            try await client.requestEmailCode(email: email)
            let code = try await fixture.sink.nextCode()
            do throws(FlowError) {
                try await client.signIn(email: email, code: code)
                Issue.record("the guest was replaced without being asked")
            } catch {
                #expect(error.code == "flow.refused.migration_required")
            }
            #expect(client.state.user.id == guestID)

            try await client.requestEmailCode(email: email, allowMigration: true)
            let user = try await client.signIn(email: email, code: try await fixture.sink.nextCode())
            #expect(user.email == email)
            #expect(user.id != guestID)
            #expect(try await guestDevice.refresh() == nil, "the guest is deleted")
        }
    }

    @Test("case 3: signed in with an address, signing up another is accountHasEmail and nothing changes")
    func accountHasEmail() async throws {
        try await AccountServer.with { fixture in
            let account = fixture.server.user
            let client = try fixture.client()
            let descriptor = try await client.login(
                email: account.email, password: account.password, allowMigration: nil)
            await #expect(throws: LimenError.account(.accountHasEmail)) {
                try await client.register(email: "second@example.com", password: password, code: fixture.mailedCode)
            }
            #expect(client.state.user.id == descriptor.userID)
            #expect(try await client.identities().allSatisfy { $0.subject == account.email })
        }
    }

    @Test(
        "case 4: signed in with an identity, another account's password is credentialInUse; loginWithoutChecking switches"
    )
    func credentialInUse() async throws {
        try await AccountServer.with { fixture in
            let graceID = try await fixture.register("grace@example.com", password: password)
            let account = fixture.server.user
            let store = MemoryStore()
            let client = try fixture.client(store: store)
            let ada = try await client.login(email: account.email, password: account.password, allowMigration: nil)
            let adaDevice = try await fixture.copy(of: store)

            await #expect(throws: LimenError.account(.credentialInUse)) {
                try await client.login(email: "grace@example.com", password: password, allowMigration: true)
            }
            #expect(client.state.user.id == ada.userID, "nothing changed")

            let switched = try await client.loginWithoutChecking(email: "grace@example.com", password: password)
            #expect(switched == LoginDescriptor(allowMigration: nil, anonymousUserID: nil, userID: graceID))
            #expect(client.state.user.email == "grace@example.com")
            #expect(try await adaDevice.refresh() == nil, "the replaced session was ended: its tokens revoked")
            #expect(try await client.identities().allSatisfy { $0.subject == "grace@example.com" })
        }
    }

    @Test("case 5: nobody signed in, login signs in or is refused for a wrong password; register creates the account")
    func nobodySignedIn() async throws {
        try await AccountServer.with { fixture in
            let account = fixture.server.user
            let client = try fixture.client()
            do throws(LimenError) {
                try await client.login(email: account.email, password: "wrong password", allowMigration: nil)
                Issue.record("a wrong password signed in")
            } catch {
                guard case .flow(.refused) = error else { throw error }
            }
            #expect(!client.state.auth.isAuthenticated)
            let descriptor = try await client.login(
                email: account.email, password: account.password, allowMigration: nil)
            #expect(descriptor.anonymousUserID == nil)
            #expect(!descriptor.replacedAnonymousUser)
            #expect(client.state.user.id == descriptor.userID)

            let created = try fixture.client()
            await #expect(throws: LimenError.userCancelled) {
                try await created.register(email: "grace@example.com", password: password) { nil }
            }
            #expect(await fixture.mailedCode() != nil, "the cancelled sign-up's code was mailed")
            let user = try await created.register(
                email: "grace@example.com", password: password, code: fixture.mailedCode)
            #expect(user.id != descriptor.userID)
            #expect(created.state.auth.level == .verified)
        }
    }
}
