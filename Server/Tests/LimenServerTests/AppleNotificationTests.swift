import Foundation
import HTTPTypes
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Sign in with Apple: server-to-server notifications")
struct AppleNotificationTests {
    @Test(
        "consent-revoked and account-delete end every session of the Apple user, and theirs only",
        arguments: ["consent-revoked", "account-delete"], TokenBackend.allCases)
    func endsSessions(type: String, backend: TokenBackend) async throws {
        try await AppleFixture.run(on: backend) { fixture in
            let first = try await fixture.signIn(try await fixture.identityToken())
            let second = try await fixture.signIn(try await fixture.identityToken())
            let other = try await fixture.signIn(try await fixture.identityToken(subject: "999.other"))

            let answer = try await fixture.notify(try await fixture.notification(type))
            #expect(answer.status == .ok)
            #expect(answer.json == ["success": .bool(true)])

            for session in [first, second] {
                let (refreshToken, accessToken) = (session["refreshToken"] ?? "", session["accessToken"] ?? "")
                #expect(try await fixture.refresh(refreshToken).status == .unauthorized)
                #expect(try await fixture.me(accessToken).status == .unauthorized)
            }
            let otherAccessToken = try #require(other["accessToken"])
            #expect(try await fixture.me(otherAccessToken).status == .ok)
        }
    }

    @Test("email-disabled, email-enabled, an unknown type and an unknown user are acknowledged, changing nothing")
    func acknowledged() async throws {
        try await AppleFixture.run { fixture in
            let session = try await fixture.signIn(try await fixture.identityToken())
            for payload in [
                try await fixture.notification("email-disabled"), try await fixture.notification("email-enabled"),
                try await fixture.notification("something-new"),
                try await fixture.notification("account-delete", subject: "nobody"),
            ] {
                #expect(try await fixture.notify(payload).status == .ok)
            }
            let accessToken = try #require(session["accessToken"])
            #expect(try await fixture.me(accessToken).status == .ok)
        }
    }

    /// How a test forges or spoils a notification.
    enum Forged: String, CaseIterable, Sendable {
        case otherKey, spliced, wrongAudience, otherIssuer, tooOld, noEvents, eventsWithoutSubject, notAJWT
    }

    @Test("a forged or spoiled notification is refused and ends nothing", arguments: Forged.allCases)
    func forged(forged: Forged) async throws {
        try await AppleFixture.run { fixture in
            let session = try await fixture.signIn(try await fixture.identityToken())
            let payload: String
            switch forged {
            case .otherKey:
                var signed = ""
                try await StandInIssuer.with(now: fixture.now) { forger in
                    signed = try await fixture.notification("account-delete", signer: forger)
                }
                payload = signed
            case .spliced:
                let good = try await fixture.notification("account-delete")
                let other = try await fixture.notification("email-enabled")
                let (parts, otherParts) = (good.split(separator: "."), other.split(separator: "."))
                payload = "\(parts[0]).\(parts[1]).\(otherParts[2])"
            case .wrongAudience:
                payload = try await fixture.notification("account-delete", extra: ["aud": .string("com.evil.app")])
            case .otherIssuer:
                payload = try await fixture.notification(
                    "account-delete", extra: ["iss": .string("https://appleid.apple.com")])
            case .tooOld:
                payload = try await fixture.notification("account-delete", age: AppleNotification.maximumAge + 120)
            case .noEvents:
                payload = try await fixture.notification("account-delete", extra: ["events": .null])
            case .eventsWithoutSubject:
                payload = try await fixture.notification(
                    "account-delete", extra: ["events": .string(#"{"type": "account-delete"}"#)])
            case .notAJWT:
                payload = "not.a.jwt"
            }
            let answer = try await fixture.notify(payload)
            #expect(answer.status == .badRequest)
            #expect(answer.error == "invalid_notification")
            let accessToken = try #require(session["accessToken"])
            #expect(try await fixture.me(accessToken).status == .ok)
        }
    }
}
