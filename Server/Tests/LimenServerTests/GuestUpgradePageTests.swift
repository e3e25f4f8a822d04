import Foundation
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("A guest upgrading in the browser: the hosted pages apply the linking cases to the browser's guest session")
struct GuestUpgradePageTests {
    @Test("a guest who signs up in the same browser keeps their user ID and data; the new session is theirs")
    func signUpLinks() async throws {
        try await withMailedSignIn { fixture, peer in
            var browser = Browser()
            let guest = try await browser.becomeGuest(fixture)
            _ = try await fixture.provider.store.writeProfile(
                userID: guest, data: ["score": .number(3)], expectedRevision: 0, now: fixture.clock.now)
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI([("prompt", "login")]))
            let requestID = try #require(signIn.hiddenField("request"))
            let signUp = try await browser.send(fixture.client, "/signup?request=\(requestID)")
            let created = try await browser.signUp(
                fixture.client, from: signUp, email: "guest@example.com", password: "a long passphrase", mail: peer)
            let code = try #require(created.redirect?.query["code"])
            let redeemed = try await fixture.provider.store.redeemedCode(
                hash: RandomIdentifier.hash(code), now: fixture.clock.now)
            #expect(redeemed?.subject == guest, "the code is the guest's, now with an address")
            let user = try #require(try await fixture.provider.store.user(id: guest))
            #expect(user.email == "guest@example.com" && user.authLevel == .verified)
            #expect(try await fixture.provider.store.profile(userID: guest)?.data == ["score": .number(3)])
        }
    }

    @Test("a guest who signs in to an existing account in the browser moves their data to it and is deleted")
    func signInMigrates() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let guest = try await browser.becomeGuest(fixture)
            _ = try await fixture.provider.store.writeProfile(
                userID: guest, data: ["score": .number(3)], expectedRevision: 0, now: fixture.clock.now)
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI([("prompt", "login")]))
            let done = try await browser.signIn(fixture.client, from: signIn)
            let code = try #require(done.redirect?.query["code"])
            let redeemed = try await fixture.provider.store.redeemedCode(
                hash: RandomIdentifier.hash(code), now: fixture.clock.now)
            #expect(redeemed?.subject == fixture.user.id)
            #expect(try await fixture.provider.store.user(id: guest) == nil)
            #expect(try await fixture.provider.store.profile(userID: fixture.user.id)?.data == ["score": .number(3)])
        }
    }

    @Test("a browser signed in with an identity signs in as someone else as before: no linking case applies")
    func identifiedSessionSwitches() async throws {
        try await withSignIn { fixture in
            let other = try await fixture.provider.accounts.signUp(
                email: "other@example.com", password: "another good password", name: nil, origin: RequestOrigin())
            var browser = Browser()
            let first = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            _ = try await browser.signIn(fixture.client, from: first)
            let again = try await browser.send(fixture.client, SignInFixture.authorizeURI([("prompt", "login")]))
            let done = try await browser.signIn(
                fixture.client, from: again, email: "other@example.com", password: "another good password")
            let code = try #require(done.redirect?.query["code"])
            let redeemed = try await fixture.provider.store.redeemedCode(
                hash: RandomIdentifier.hash(code), now: fixture.clock.now)
            #expect(redeemed?.subject == other.id)
            #expect(try await fixture.provider.store.user(id: fixture.user.id) != nil)
        }
    }
}
