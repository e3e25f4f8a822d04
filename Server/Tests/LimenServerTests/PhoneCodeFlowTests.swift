import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

extension ServerComposition {
    /// The SMS written to the outbox since the last call, oldest first (taken out of it at `now`, as a worker would).
    func sentSMS(at now: Date) async throws -> [MailMessage] {
        var sent: [MailMessage] = []
        while let record = try await store.claimOutboxMail(
            now: now, until: now.addingTimeInterval(600), claim: "test")
        {
            if let message = mailOutbox.open(record), message.channel == .sms { sent.append(message) }
            try await store.finishOutboxMail(id: record.id, claim: "test")
        }
        return sent
    }
}

extension TokenFixture {
    /// The SMS written to the outbox since the last call, oldest first.
    func sentSMS() async throws -> [MailMessage] {
        try await provider.sentSMS(at: clock.now)
    }

    /// Starts `phone-code` for the `app` client with the `phone` scope (carrying `bearer` when given) and submits
    /// `phone`: the interaction and the answer.
    func sendPhoneCode(
        to phone: String,
        bearer: String? = nil
    ) async throws -> (interaction: String, answer: RecordedResponse) {
        let fields = Self.appStartFields().map { $0.0 == "scope" ? ($0.0, "openid phone offline_access") : $0 }
        let started = try await post(
            "/flows/phone-code", fields, headers: bearer.map { [.authorization: "Bearer \($0)"] } ?? [:])
        let id = try #require(started["interaction"])
        #expect(started.collectors.first?["type"] == .string("PHONE"))
        #expect(started.collectors.first?["format"] == .string("e164"))
        let answer = try await continueFlow(id, node: "phone", action: "submit", values: ["phone": .string(phone)])
        return (id, answer)
    }

    /// The code of the one SMS sent to `phone` since the last look.
    func smsCode(to phone: String) async throws -> String {
        let sent = try await sentSMS()
        #expect(sent.count == 1 && sent.first?.to == phone)
        return try #require(sent.last?.code)
    }

    /// Sends a code to `phone`, enters it, and redeems the success's code: the tokens.
    func signIn(phone: String, bearer: String? = nil) async throws -> (
        success: RecordedResponse, tokens: RecordedResponse
    ) {
        let (id, sent) = try await sendPhoneCode(to: phone, bearer: bearer)
        #expect(sent.node["id"]?.stringValue == "code")
        let success = try await continueFlow(
            id, node: "code", action: "submit",
            values: ["code": .string(try await smsCode(to: PhoneNumber(phone)?.e164 ?? phone))])
        #expect(success.nodeType == "success", "\(String(decoding: success.body, as: UTF8.self))")
        return (success, try await redeem(try #require(success.node["code"]?.stringValue), clientID: "app"))
    }
}

@Suite("Sign-in with a phone number by SMS code: the phone-code flow, its limits and its accounts")
struct PhoneCodeFlowTests {
    static let phone = "+15551234567"

    @Test(
        "a new number makes a verified account whose tokens carry the number; the same number signs in to it again",
        arguments: TokenBackend.allCases)
    func newNumberSignsUpThenIn(_ backend: TokenBackend) async throws {
        try await FlowFixture.run(on: backend) { fixture in
            let (first, tokens) = try await fixture.signIn(phone: "+1 (555) 123-4567")
            #expect(first.node["new_user"] == .bool(true))
            let idToken = try UnverifiedJWT(try #require(tokens["id_token"]))
            #expect(idToken[claim: "phone_number"] == .string(Self.phone))
            #expect(idToken[claim: "phone_number_verified"] == .bool(true))
            #expect(idToken[claim: "auth_level"] == .string("verified"))
            let subject = try TokenFixture.subject(of: tokens)
            #expect(try await fixture.provider.store.identities(userID: subject).map(\.kind) == ["phone"])
            let userInfo = try await fixture.get(
                "/userinfo", headers: [.authorization: "Bearer \(try TokenFixture.accessToken(tokens))"])
            #expect(userInfo.json["phone_number"] == .string(Self.phone))

            fixture.clock.advance(by: PhoneCodes.resendInterval)
            let (again, tokensAgain) = try await fixture.signIn(phone: Self.phone)
            #expect(again.node["new_user"] == .bool(false))
            #expect(try TokenFixture.subject(of: tokensAgain) == subject)
            // A refreshed ID token still carries the number.
            let refreshed = try await fixture.refresh(try #require(tokensAgain["refresh_token"]), clientID: "app")
            #expect(
                try UnverifiedJWT(try #require(refreshed["id_token"]))[claim: "phone_number"] == .string(Self.phone))
        }
    }

    @Test("discovery lists the phone scope and its claims")
    func discovery() async throws {
        try await FlowFixture.run { fixture in
            let document = try await fixture.get("/.well-known/openid-configuration")
            #expect(document.json["scopes_supported"]?.stringArrayValue?.contains("phone") == true)
            let claims = try #require(document.json["claims_supported"]?.stringArrayValue)
            #expect(claims.contains("phone_number") && claims.contains("phone_number_verified"))
        }
    }

    @Test(
        "a malformed or oversized number is a field error and sends nothing",
        arguments: ["555 123 4567", "+1 555 CALL", "+0123456789", "+1" + String(repeating: "5", count: 20)])
    func malformedNumber(input: String) async throws {
        try await FlowFixture.run { fixture in
            let (_, answer) = try await fixture.sendPhoneCode(to: input)
            #expect(answer.nodeType == "error")
            #expect(answer.detailCodes == ["phone": ["invalid_phone_number"]])
            #expect(try await fixture.sentSMS().isEmpty)
        }
    }

    @Test("a number outside sms_countries is refused with unsupported_country and sends nothing")
    func excludedCountry() async throws {
        let someCountries: (inout ServerConfiguration) -> Void = { $0.smsCountries = [44, 49] }
        try await FlowFixture.run(configure: someCountries) { fixture in
            let (_, refused) = try await fixture.sendPhoneCode(to: Self.phone)
            #expect(refused.detailCodes == ["phone": ["unsupported_country"]])
            #expect(try await fixture.sentSMS().isEmpty)
            let (_, sent) = try await fixture.sendPhoneCode(to: "+44 20 7946 0958")
            #expect(sent.node["id"]?.stringValue == "code")
            #expect(try await fixture.sentSMS().map(\.to) == ["+442079460958"])
        }
    }

    @Test("resend: not sooner than 30 s (429 too_many_messages with retry_after); then a new code, and only it works")
    func resend() async throws {
        try await FlowFixture.run { fixture in
            let (id, _) = try await fixture.sendPhoneCode(to: Self.phone)
            let first = try await fixture.smsCode(to: Self.phone)
            fixture.clock.advance(by: 10)
            let early = try await fixture.continueFlow(id, node: "code", action: "resend")
            #expect(early.status == .tooManyRequests)
            #expect(early.detailCodes == ["phone": ["too_many_messages"]])
            #expect(early.json["retry_after"] == .number(20))
            #expect(early.headers[.retryAfter] == "20")
            #expect(try await fixture.sentSMS().isEmpty)
            fixture.clock.advance(by: 20)
            let resent = try await fixture.continueFlow(id, node: "code", action: "resend")
            #expect(resent.status == .ok && resent.node["id"]?.stringValue == "code")
            let second = try await fixture.smsCode(to: Self.phone)
            if first != second {
                let old = try await fixture.continueFlow(
                    id, node: "code", action: "submit", values: ["code": .string(first)])
                #expect(old.detailCodes == ["code": ["invalid_code"]], "only the newest code works")
            }
            let done = try await fixture.continueFlow(
                id, node: "code", action: "submit", values: ["code": .string(second)])
            #expect(done.nodeType == "success")
        }
    }

    @Test("a number gets at most 5 messages an hour, whichever interactions ask")
    func perNumberLimit() async throws {
        try await FlowFixture.run { fixture in
            for _ in 0..<PhoneCodes.perNumber.perHour {
                let (_, sent) = try await fixture.sendPhoneCode(to: Self.phone)
                #expect(sent.status == .ok && sent.node["id"]?.stringValue == "code")
                fixture.clock.advance(by: PhoneCodes.resendInterval)
            }
            #expect(try await fixture.sentSMS().count == PhoneCodes.perNumber.perHour)
            let (_, refused) = try await fixture.sendPhoneCode(to: Self.phone)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.detailCodes == ["phone": ["too_many_messages"]])
            #expect((refused.json["retry_after"]?.numberValue ?? 0) > 0)
            #expect(try await fixture.sentSMS().isEmpty)
            // Another number from the same address still gets its code.
            _ = try await fixture.sendPhoneCode(to: "+15557654321")
            #expect(try await fixture.sentSMS().count == 1)
        }
    }

    @Test("a client address gets at most 10 messages an hour, across numbers")
    func perClientAddressLimit() async throws {
        try await FlowFixture.run { fixture in
            for index in 0..<PhoneCodes.perClientAddress.perHour {
                let (_, sent) = try await fixture.sendPhoneCode(to: "+1555000\(1000 + index)")
                #expect(sent.node["id"]?.stringValue == "code")
            }
            let (_, refused) = try await fixture.sendPhoneCode(to: "+15550009999")
            #expect(refused.detailCodes == ["phone": ["too_many_messages"]])
            #expect(try await fixture.sentSMS().count == PhoneCodes.perClientAddress.perHour)
        }
    }

    @Test("with sign-up off, an unknown number gets the same answer and no message, and no code signs it in")
    func signUpDisabled() async throws {
        let signUpOff: (inout ServerConfiguration) -> Void = { $0.signUpEnabled = false }
        try await FlowFixture.run(configure: signUpOff) { fixture in
            let (id, unknown) = try await fixture.sendPhoneCode(to: Self.phone)
            #expect(unknown.status == .ok && unknown.node["id"]?.stringValue == "code")
            #expect(try await fixture.sentSMS().isEmpty)
            let guess = try await fixture.continueFlow(
                id, node: "code", action: "submit", values: ["code": .string("123456")])
            #expect(guess.detailCodes == ["code": ["invalid_code"]])
        }
    }

    @Test("sign-up off: an unknown number's resend within 30 s is refused as a known one's; racing sends pass once")
    func spacingTellsNothing() async throws {
        let signUpOff: (inout ServerConfiguration) -> Void = { $0.signUpEnabled = false }
        try await FlowFixture.run(configure: signUpOff) { fixture in
            let (id, _) = try await fixture.sendPhoneCode(to: Self.phone)
            fixture.clock.advance(by: 10)
            let early = try await fixture.continueFlow(id, node: "code", action: "resend")
            #expect(early.status == .tooManyRequests)
            #expect(early.json["retry_after"] == .number(20))
            #expect(try await fixture.sentSMS().isEmpty)

            let other = "+14155550123"
            let answers = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<2 {
                    group.addTask { try await fixture.sendPhoneCode(to: other).1.status.code }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(answers.sorted() == [200, 429], "one of two racing sends is spaced out: \(answers)")
        }
    }

    @Test("a wrong code is refused; after five tries even the right one is")
    func codeRefusals() async throws {
        try await FlowFixture.run { fixture in
            let (id, _) = try await fixture.sendPhoneCode(to: Self.phone)
            try await fixture.expectTriesUsedUp(id, rightCode: try await fixture.smsCode(to: Self.phone))
        }
    }

    @Test("a guest proving a number keeps their user ID; the number is then theirs")
    func guestUpgrades() async throws {
        try await FlowFixture.run { fixture in
            let guest = try await fixture.guestTokens()
            let guestID = try TokenFixture.subject(of: guest)
            let (success, tokens) = try await fixture.signIn(
                phone: Self.phone, bearer: try TokenFixture.accessToken(guest))
            #expect(success.node["new_user"] == .bool(false))
            #expect(try TokenFixture.subject(of: tokens) == guestID)
            #expect(try await fixture.provider.store.user(id: guestID)?.phoneNumber == Self.phone)
        }
    }

    @Test("a signed-in user adds a phone number; a number another account has is credential_in_use")
    func signedInUserLinks() async throws {
        try await FlowFixture.run { fixture in
            let (_, other) = try await fixture.signIn(phone: "+15557654321")
            let otherID = try TokenFixture.subject(of: other)
            let grace = try await fixture.redeem(
                try #require(try await fixture.signInThroughFlow().node["code"]?.stringValue), clientID: "app")
            let bearer = try TokenFixture.accessToken(grace)
            let (_, tokens) = try await fixture.signIn(phone: Self.phone, bearer: bearer)
            let graceID = try TokenFixture.subject(of: tokens)
            #expect(graceID == (try TokenFixture.subject(of: grace)))
            #expect(try await fixture.provider.store.user(id: graceID)?.phoneNumber == Self.phone)

            fixture.clock.advance(by: PhoneCodes.resendInterval)
            let (id, _) = try await fixture.sendPhoneCode(to: "+15557654321", bearer: bearer)
            let taken = try await fixture.continueFlow(
                id, node: "code", action: "submit",
                values: ["code": .string(try await fixture.smsCode(to: "+15557654321"))])
            #expect(taken.detailCodes["phone"] == ["credential_in_use"])
            #expect(try await fixture.provider.store.user(id: otherID)?.phoneNumber == "+15557654321")
        }
    }
}

@Suite(
    "SMS codes as a signed JSON POST to a real HTTPS receiver",
    .enabled(if: WebhookPeer.unavailableReason == nil, "python3 cannot import cryptography"))
struct SMSWebhookTests {
    @Test("the phone-code flow's SMS arrives as {to, body, code, purpose}, signed, and its code signs in")
    func delivered() async throws {
        try await WebhookPeer.with { peer in
            let useReceiver: (inout ServerConfiguration) -> Void = { configuration in
                configuration.smsTransport = SMSTransport(url: peer.url) ?? .log
                configuration.smsWebhookSecret = WebhookPeer.secret
                configuration.mailCAFile = peer.caFile
            }
            try await FlowFixture.run(configure: useReceiver) { fixture in
                let (id, _) = try await fixture.sendPhoneCode(to: PhoneCodeFlowTests.phone)
                #expect(await fixture.provider.mailOutboxWorker.deliverDue() == 1)
                let body = try #require(try peer.messages().first)
                #expect(Set(body.keys) == ["to", "body", "code", "purpose"])
                #expect(body["to"] == .string(PhoneCodeFlowTests.phone))
                #expect(body["purpose"] == .string("sign-in"))
                let code = try #require(body["code"]?.stringValue)
                #expect(code.count == EmailCodes.defaultLength)
                #expect(body["body"]?.stringValue?.contains(code) == true)
                #expect(peer.attempts() == [200])
                let done = try await fixture.continueFlow(
                    id, node: "code", action: "submit", values: ["code": .string(code)])
                #expect(done.nodeType == "success")
            }
        }
    }
}
