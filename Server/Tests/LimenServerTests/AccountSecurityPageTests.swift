import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The account page's passkeys and two-step sign-in: forms over the browser session, and their refusals")
struct AccountSecurityPageTests {
    /// A passkey record of `user` named `name`.
    private static func passkey(of user: UserRecord, named name: String, id: UInt8, at date: Date)
        -> PasskeyCredentialRecord
    {
        PasskeyCredentialRecord(
            credentialID: Data([id, id]), userID: user.id, userHandle: Data([id]), publicKey: Data([0xa0]),
            signCount: 0, isBackupEligible: true, isBackedUp: true, name: name, createdAt: date)
    }

    /// The registration options `page` carries for the script, as JSON.
    private static func registrationOptions(on page: Page) throws -> JSONValue {
        let marker = #"data-mode="register" data-options=""#
        let start = try #require(page.body.range(of: marker)).upperBound
        let end = try #require(page.body[start...].firstIndex(of: "\""))
        let text = String(page.body[start..<end])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try JSONValue(parsing: Array(text.utf8))
    }

    @Test(
        "a passkey added with the page's challenge is listed; the challenge again, or another session's, is refused")
    func addPasskey() async throws {
        try await withSignIn { fixture in
            var (browser, page) = try await AccountPageTests.signedIn(fixture)
            #expect(page.body.contains("You have no passkeys yet."))
            #expect(page.body.contains(#"data-passkey="passkey""#))
            #expect(page.headers[.contentSecurityPolicy] == PasskeyScript.contentSecurityPolicy)
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            let response = try authenticator.register(try Self.registrationOptions(on: page))
            let credential = String(decoding: response.serialized(), as: UTF8.self)
            let challenge = try #require(page.hiddenField("challenge"))
            let fields = [
                ("intent", "add_passkey"), ("challenge", challenge), ("passkey", credential), ("name", "Laptop"),
            ]

            let added = try await browser.submit(fixture.client, page, to: "/account", fields)
            #expect(added.status == .ok)
            #expect(added.body.contains("The passkey is saved"))
            #expect(added.body.contains("<strong>Laptop</strong>: created "))
            let stored = try await fixture.provider.store.passkeyCredentials(userID: fixture.user.id)
            #expect(stored.map(\.name) == ["Laptop"])

            let replayed = try await browser.submit(fixture.client, page, to: "/account", fields)
            #expect(replayed.status == .conflict, "the challenge is used once")
            #expect(replayed.alert?.contains("used already") == true)

            var other = Browser()
            _ = try await other.signIn(
                fixture.client, from: try await other.send(fixture.client, SignInFixture.authorizeURI()))
            let otherPage = try await other.send(fixture.client, "/account")
            let second = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            let fresh = try second.register(try Self.registrationOptions(on: page))
            let elsewhere = try await other.submit(
                fixture.client, otherPage, to: "/account",
                [
                    ("intent", "add_passkey"), ("challenge", challenge),
                    ("passkey", String(decoding: fresh.serialized(), as: UTF8.self)),
                ])
            #expect(elsewhere.status == .badRequest, "the challenge is bound to the session that got it")
            let noScript = try await browser.submit(
                fixture.client, page, to: "/account", [("intent", "add_passkey"), ("challenge", challenge)])
            #expect(noScript.status == .badRequest)
            #expect(try await fixture.provider.store.passkeyCredentials(userID: fixture.user.id).count == 1)
        }
    }

    @Test("the page's challenge is used once: of two passkeys sent with it at once, exactly one is saved")
    func addPasskeyOnceConcurrently() async throws {
        try await withSignIn { fixture in
            let (browser, page) = try await AccountPageTests.signedIn(fixture)
            let options = try Self.registrationOptions(on: page)
            let challenge = try #require(page.hiddenField("challenge"))
            let forms = try (1...2).map { number in
                let response = try SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin).register(options)
                return [
                    ("intent", "add_passkey"), ("challenge", challenge),
                    ("passkey", String(decoding: response.serialized(), as: UTF8.self)), ("name", "Key \(number)"),
                ]
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for form in forms {
                    group.addTask { [browser] in
                        var copy = browser
                        return try await copy.submit(fixture.client, page, to: "/account", form).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.sorted { $0.code < $1.code } == [.ok, .conflict])
            #expect(try await fixture.provider.store.passkeyCredentials(userID: fixture.user.id).count == 1)
        }
    }

    @Test("rename and delete touch only the user's own passkeys, need the CSRF token and a recent sign-in")
    func renameAndDelete() async throws {
        try await withSignIn { fixture in
            let mallory = try await fixture.provider.accounts.signUp(
                email: "mallory@example.com", password: SignInFixture.password, name: "Mallory", origin: RequestOrigin()
            )
            let own = Self.passkey(of: fixture.user, named: "Phone", id: 1, at: fixture.clock.now)
            let theirs = Self.passkey(of: mallory, named: "Theirs", id: 2, at: fixture.clock.now)
            #expect(try await fixture.provider.store.insertPasskeyCredential(own))
            #expect(try await fixture.provider.store.insertPasskeyCredential(theirs))
            var (browser, page) = try await AccountPageTests.signedIn(fixture)
            let ownID = Base64URL.encode(own.credentialID)
            let theirID = Base64URL.encode(theirs.credentialID)
            #expect(page.body.contains("<strong>Phone</strong>: created "))
            #expect(page.body.contains("last used never, backed up yes"))
            #expect(!page.body.contains("Theirs"))

            let renamed = try await browser.submit(
                fixture.client, page, to: "/account", [("intent", "rename_passkey"), ("id", ownID), ("name", "Work")])
            #expect(renamed.status == .ok)
            #expect(renamed.body.contains("<strong>Work</strong>"))
            let tooLong = try await browser.submit(
                fixture.client, page, to: "/account",
                [("intent", "rename_passkey"), ("id", ownID), ("name", String(repeating: "é", count: 65))])
            #expect(tooLong.status == .badRequest)
            for intent in ["rename_passkey", "delete_passkey"] {
                let other = try await browser.submit(
                    fixture.client, page, to: "/account", [("intent", intent), ("id", theirID), ("name", "Mine")])
                #expect(other.status == .notFound, "another user's passkey is no passkey of hers")
                let malformed = try await browser.submit(
                    fixture.client, page, to: "/account", [("intent", intent), ("id", "!!"), ("name", "Mine")])
                #expect(malformed.status == .notFound)
            }
            #expect(try await fixture.provider.store.passkeyCredential(id: theirs.credentialID)?.name == "Theirs")

            let forged = try await browser.send(
                fixture.client, "/account", method: .post,
                form: [("csrf", "x"), ("intent", "delete_passkey"), ("id", ownID)])
            #expect(forged.status == .forbidden)
            #expect(try await fixture.provider.store.passkeyCredential(id: own.credentialID) != nil)

            fixture.clock.advance(by: TokenLifetimes().accountChangeMaxAge + 1)
            let stale = try await browser.submit(
                fixture.client, page, to: "/account", [("intent", "delete_passkey"), ("id", ownID)])
            #expect(stale.headers[.location] == AccountReauthentication.fromAccountPage, "sent to sign in again")
            #expect(try await fixture.provider.store.passkeyCredential(id: own.credentialID) != nil)

            var fresh = Browser()
            _ = try await fresh.signIn(
                fixture.client, from: try await fresh.send(fixture.client, SignInFixture.authorizeURI()))
            let freshPage = try await fresh.send(fixture.client, "/account")
            let deleted = try await fresh.submit(
                fixture.client, freshPage, to: "/account", [("intent", "delete_passkey"), ("id", ownID)])
            #expect(deleted.status == .ok)
            #expect(deleted.body.contains("You have no passkeys yet."))
            #expect(try await fixture.provider.store.passkeyCredential(id: own.credentialID) == nil)
        }
    }

    @Test(
        "two-step sign-in is turned on by a current code of the set-up, shows ten recovery codes once, and is turned off or given new codes only with a fresh, unused code"
    )
    func twoStep() async throws {
        try await withSignIn { fixture in
            var (browser, page) = try await AccountPageTests.signedIn(fixture)
            #expect(page.body.contains("Two-step sign-in is off."))
            let setup = try await browser.submit(fixture.client, page, to: "/account", [("intent", "set_up_totp")])
            #expect(setup.body.contains(#"<code id="otpauth-uri">otpauth://totp/"#))
            let secret = try #require(
                setup.body.range(of: #"<code id="totp-secret">"#).map {
                    setup.body[$0.upperBound...].prefix { $0 != "<" }
                })
            let totp = try TOTP(secret: try Base32.decode(String(secret)))
            let enrolment = try #require(setup.hiddenField("enrolment"))
            let right = totp.code(at: fixture.clock.now)

            let wrong = try await browser.submit(
                fixture.client, setup, to: "/account",
                [
                    ("intent", "enable_totp"), ("enrolment", enrolment),
                    ("code", right == "000000" ? "111111" : "000000"),
                ])
            #expect(wrong.status == .forbidden)
            #expect(wrong.hiddenField("enrolment") == enrolment, "the same secret is offered again")
            let forgedEnrolment = try await browser.submit(
                fixture.client, setup, to: "/account",
                [
                    ("intent", "enable_totp"), ("enrolment", Base64URL.encode(Data(repeating: 1, count: 60))),
                    ("code", right),
                ])
            #expect(forgedEnrolment.status == .badRequest, "a secret sealed for nobody turns nothing on")
            let on = try await browser.submit(
                fixture.client, setup, to: "/account",
                [("intent", "enable_totp"), ("enrolment", enrolment), ("code", right)])
            #expect(on.status == .ok)
            #expect(on.body.contains("Two-step sign-in is on; 10 recovery codes left."))
            let codes = on.body.components(separatedBy: "<li><code>").dropFirst().compactMap {
                $0.split(separator: "<").first
            }
            #expect(codes.count == 10)
            #expect(try await fixture.provider.store.secondFactor(userID: fixture.user.id) != nil)
            let again = try await browser.send(fixture.client, "/account")
            #expect(!again.body.contains("<li><code>"), "recovery codes are shown once")

            let replayed = try await browser.submit(
                fixture.client, again, to: "/account", [("intent", "new_recovery_codes"), ("code", right)])
            #expect(replayed.status == .forbidden, "the code that turned it on is used")
            fixture.clock.advance(by: 30)
            let renewed = try await browser.submit(
                fixture.client, again, to: "/account",
                [("intent", "new_recovery_codes"), ("code", totp.code(at: fixture.clock.now))])
            #expect(renewed.status == .ok)
            let newCodes = renewed.body.components(separatedBy: "<li><code>").dropFirst().compactMap {
                $0.split(separator: "<").first
            }
            #expect(newCodes.count == 10)

            let old = try await browser.submit(
                fixture.client, again, to: "/account", [("intent", "disable_totp"), ("code", String(codes[0]))])
            #expect(old.status == .forbidden, "the old recovery codes no longer work")
            let off = try await browser.submit(
                fixture.client, again, to: "/account", [("intent", "disable_totp"), ("code", String(newCodes[0]))])
            #expect(off.status == .ok)
            #expect(off.body.contains("Two-step sign-in is off."))
            #expect(try await fixture.provider.store.secondFactor(userID: fixture.user.id) == nil)
        }
    }

    @Test("wrong codes on the page count toward the sign-in lockout, which then refuses even a right code")
    func wrongCodesLock() async throws {
        try await withSignIn { fixture in
            // Signed in first: with two-step sign-in on, the password alone would not sign in.
            var (browser, page) = try await AccountPageTests.signedIn(fixture)
            let factors = fixture.provider.flowServices.secondFactors
            let enrolment = try factors.newEnrolment(for: fixture.user)
            let setup = try #require(factors.setup(of: enrolment, for: fixture.user))
            #expect(
                try await fixture.provider.store.insertSecondFactor(
                    SecondFactorRecord(
                        userID: fixture.user.id, sealedTOTPSecret: enrolment.sealedSecret, recoveryCodeHashes: [],
                        enabledAt: fixture.clock.now)))
            let totp = try TOTP(secret: try Base32.decode(setup.secret))
            let right = totp.code(at: fixture.clock.now)
            let wrong = right == "000000" ? "111111" : "000000"
            var last = page
            for _ in 0..<20 where last.status != .tooManyRequests {
                last = try await browser.submit(
                    fixture.client, page, to: "/account", [("intent", "disable_totp"), ("code", wrong)])
                #expect(last.status == .forbidden || last.status == .tooManyRequests)
            }
            #expect(last.status == .tooManyRequests)
            #expect(last.headers[.retryAfter] != nil)
            let locked = try await browser.submit(
                fixture.client, page, to: "/account", [("intent", "disable_totp"), ("code", right)])
            #expect(locked.status == .tooManyRequests)
            #expect(try await fixture.provider.store.secondFactor(userID: fixture.user.id) != nil)
        }
    }
}
