import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The hosted phone-code page: a number, the code sent by SMS, and the request continues")
struct PhoneCodePageTests {
    @Test("linked from the sign-in page; a phone keyboard, the code field for autofill; resend skips the empty code")
    func phoneCodePage() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI(client: "web"))
            let requestID = try #require(signIn.hiddenField("request"))
            #expect(signIn.body.contains("href=\"phone-code?request=\(requestID)\""))
            #expect(signIn.body.contains("Sign in with a phone number"))
            let page = try await browser.send(fixture.client, "/phone-code?request=\(requestID)")
            #expect(page.body.contains("<h1>Sign in with a phone number</h1>"))
            #expect(page.body.contains("type=\"tel\"") && page.body.contains("autocomplete=\"tel\""))
            let refused = try await browser.submit(fixture.client, page, to: "/phone-code", [("phone", "555 0100")])
            #expect(refused.status == .badRequest && refused.body.contains("id=\"phone-error\""))
            let sent = try await browser.submit(
                fixture.client, refused, to: "/phone-code", [("phone", "+1 555 010 0100")])
            #expect(sent.body.contains("<h1>Enter your code</h1>"))
            #expect(sent.body.contains("autocomplete=\"one-time-code\""))
            #expect(sent.body.contains("formnovalidate"), "Send another code does not need the code filled in")
            let first = try #require(try await fixture.provider.sentSMS(at: fixture.clock.now).first?.code)
            fixture.clock.advance(by: PhoneCodes.resendInterval)
            let resent = try await browser.submit(fixture.client, sent, to: "/phone-code", [("action", "resend")])
            #expect(resent.body.contains("<h1>Enter your code</h1>"))
            let code = try #require(try await fixture.provider.sentSMS(at: fixture.clock.now).first?.code)
            #expect(code.count == first.count)
            let consent = try await browser.submit(fixture.client, resent, to: "/phone-code", [("code", code)])
            #expect(consent.body.contains("<h1>Allow access?</h1>"), "a third-party client's consent page follows")
        }
    }
}
