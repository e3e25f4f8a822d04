import Foundation
import HTTPTypes
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("The /device verification pages (RFC 8628 §3.3)")
struct DevicePagesTests {
    @Test("GET /device asks for the code, prefilled from ?user_code=, with a CSRF token and cookie")
    func pageShowsForm() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let page = try await browser.send(fixture.client, "/device?user_code=BCDF-GHJK")
            #expect(page.status == .ok && page.isHTML)
            #expect(page.body.contains("action=\"device\""))
            #expect(page.body.contains("value=\"BCDF-GHJK\""))
            #expect(page.hiddenField("csrf") != nil)
            #expect(browser.cookies[CSRFToken.cookieName] != nil)
        }
    }

    @Test("a POST without the form's CSRF token is refused")
    func csrfRequired() async throws {
        try await withSignIn { fixture in
            let (_, userCode) = try await fixture.startDevice()
            var browser = Browser()
            _ = try await browser.send(fixture.client, "/device")
            let page = try await browser.send(
                fixture.client, "/device", method: .post, form: [("user_code", userCode), ("csrf", "forged")])
            #expect(page.status == .forbidden)
        }
    }

    @Test("signed out: the code leads to the sign-in page, then a confirmation naming the device request")
    func signInThenConfirmation() async throws {
        try await withSignIn { fixture in
            let (_, userCode) = try await fixture.startDevice(scope: "openid email")
            var browser = Browser()
            let signIn = try await browser.enterUserCode(fixture.client, userCode)
            #expect(signIn.body.contains("action=\"login\""))
            let confirmation = try await browser.signIn(fixture.client, from: signIn)
            #expect(confirmation.status == .ok)
            // limen-cli is first party, yet the device request is confirmed (RFC 8628 §5.4).
            #expect(confirmation.body.contains("id=\"device-request\""))
            #expect(confirmation.body.contains("Connect a device?"))
            #expect(confirmation.body.contains("See your email address"))
            #expect(confirmation.body.contains(SignInFixture.email))
            #expect(confirmation.body.contains("value=\"allow\"") && confirmation.body.contains("value=\"deny\""))
        }
    }

    @Test("Allow approves the device for the signed-in user, and its next poll gets tokens")
    func allow() async throws {
        try await withSignIn { fixture in
            let (deviceCode, userCode) = try await fixture.startDevice()
            var browser = Browser()
            let done = try await browser.decideDevice(fixture.client, userCode, decision: "allow")
            #expect(done.status == .ok)
            #expect(done.body.contains("Device connected"))
            let record = try #require(try await fixture.deviceRecord(deviceCode))
            #expect(record.status == .approved)
            #expect(record.subject == fixture.user.id)
            #expect(try await fixture.poll(deviceCode).status == .ok)
        }
    }

    @Test("Deny marks the device denied; its poll is access_denied")
    func deny() async throws {
        try await withSignIn { fixture in
            let (deviceCode, userCode) = try await fixture.startDevice()
            var browser = Browser()
            let done = try await browser.decideDevice(fixture.client, userCode, decision: "deny")
            #expect(done.body.contains("Device not connected"))
            #expect(try await fixture.deviceRecord(deviceCode)?.status == .denied)
            #expect(try await fixture.poll(deviceCode).error == "access_denied")
        }
    }

    @Test("a signed-in browser goes straight to the confirmation; the code is read in lower case without the dash")
    func signedInAndNormalised() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            _ = try await browser.decideDevice(
                fixture.client, try await fixture.startDevice().userCode, decision: "allow")
            let (_, userCode) = try await fixture.startDevice()
            let typed = userCode.lowercased().replacingOccurrences(of: "-", with: " ")
            let confirmation = try await browser.enterUserCode(fixture.client, typed)
            #expect(confirmation.body.contains("id=\"device-request\""))
            #expect(!confirmation.body.contains("action=\"login\""))
        }
    }

    @Test(
        "a wrong, expired or already used code shows the form again with an error",
        arguments: ["wrong", "expired", "used"])
    func refusedCodes(_ case: String) async throws {
        try await withSignIn { fixture in
            let (_, userCode) = try await fixture.startDevice()
            var browser = Browser()
            var typed = userCode
            switch `case` {
            case "wrong": typed = "BBBB-BBBB" == userCode ? "CCCC-CCCC" : "BBBB-BBBB"
            case "expired": fixture.clock.advance(by: 600)
            default: _ = try await browser.decideDevice(fixture.client, userCode, decision: "deny")
            }
            let page = try await browser.enterUserCode(fixture.client, typed)
            #expect(page.status == .badRequest)
            #expect(page.alert?.contains("not valid") == true)
            #expect(page.body.contains("action=\"device\""))
        }
    }

    @Test("after 5 wrong codes the browser is refused for a while, even with a right code; then it may try again")
    func wrongCodesLockTheBrowser() async throws {
        try await withSignIn { fixture in
            let (_, userCode) = try await fixture.startDevice()
            let wrong = userCode == "BBBB-BBBB" ? "CCCC-CCCC" : "BBBB-BBBB"
            var browser = Browser()
            for _ in 0..<5 {
                #expect(try await browser.enterUserCode(fixture.client, wrong).status == .badRequest)
            }
            let locked = try await browser.enterUserCode(fixture.client, userCode)
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] == "30")
            #expect(locked.alert?.contains("Too many wrong codes") == true)

            var otherBrowser = Browser()
            #expect(try await otherBrowser.enterUserCode(fixture.client, userCode).status == .ok)
            fixture.clock.advance(by: 30)
            #expect(try await browser.enterUserCode(fixture.client, userCode).status == .ok)
        }
    }

    @Test("a confirmation answered twice counts once; one left open past the code's expiry decides nothing")
    func confirmationOnceAndInTime() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let (deviceCode, userCode) = try await fixture.startDevice()
            let confirmation = try await browser.signIn(
                fixture.client, from: try await browser.enterUserCode(fixture.client, userCode))
            _ = try await browser.submit(fixture.client, confirmation, to: "/consent", [("decision", "deny")])
            let second = try await browser.submit(fixture.client, confirmation, to: "/consent", [("decision", "allow")])
            #expect(second.status == .badRequest)
            #expect(try await fixture.deviceRecord(deviceCode)?.status == .denied)

            let (lateCode, lateUserCode) = try await fixture.startDevice()
            fixture.clock.advance(by: 60)
            let open = try await browser.enterUserCode(fixture.client, lateUserCode)
            fixture.clock.advance(by: 545)
            let late = try await browser.submit(fixture.client, open, to: "/consent", [("decision", "allow")])
            #expect(late.status == .badRequest)
            #expect(try await fixture.deviceRecord(lateCode)?.status == .pending)
        }
    }

    @Test("two browsers entering the same code: the first decision wins, the other is told the code has ended")
    func firstDecisionWins() async throws {
        try await withSignIn { fixture in
            let (deviceCode, userCode) = try await fixture.startDevice()
            var first = Browser()
            var second = Browser()
            let firstConfirmation = try await first.signIn(
                fixture.client, from: try await first.enterUserCode(fixture.client, userCode))
            let secondConfirmation = try await second.signIn(
                fixture.client, from: try await second.enterUserCode(fixture.client, userCode))
            _ = try await first.submit(fixture.client, firstConfirmation, to: "/consent", [("decision", "allow")])
            let late = try await second.submit(
                fixture.client, secondConfirmation, to: "/consent", [("decision", "deny")])
            #expect(late.status == .badRequest)
            #expect(late.body.contains("This code has expired"))
            #expect(try await fixture.deviceRecord(deviceCode)?.status == .approved)
        }
    }
}
