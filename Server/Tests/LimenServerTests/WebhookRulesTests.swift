import Foundation
import LimenServerStorage
import Testing

@testable import LimenServerCore

@Suite("Event webhooks: signatures, patterns, URLs, outcomes and the retry schedule")
struct WebhookRulesTests {
    @Test("the signature matches the Standard Webhooks libraries' known answer")
    func knownAnswer() throws {
        // The test vector of the specification's reference libraries (standard-webhooks, python/tests), which
        // `standardwebhooks` on PyPI reproduces.
        let secret = try #require(WebhookSecret(rawValue: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
        let signature = secret.signature(
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Data(#"{"test": 2432232314}"#.utf8))
        #expect(signature == "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        let other = try #require(
            WebhookSecret(rawValue: "whsec_" + Data(repeating: 7, count: 32).base64EncodedString()))
        #expect(
            other.signature(id: "msg_p5jXN8AQM9LWM0D4loKWxJek", timestamp: 1_614_265_330, body: Data("{}".utf8))
                != signature)
    }

    @Test("a new secret is whsec_ and the base64 of 32 random bytes, never twice the same")
    func newSecrets() throws {
        let secrets = (0..<8).map { _ in WebhookSecret.random().rawValue }
        #expect(Set(secrets).count == secrets.count)
        for secret in secrets {
            #expect(secret.hasPrefix("whsec_"))
            #expect(Data(base64Encoded: String(secret.dropFirst(6)))?.count == 32)
        }
        #expect(WebhookSecret(rawValue: "sk_abc") == nil)
        #expect(WebhookSecret(rawValue: "whsec_%%%") == nil)
        #expect(WebhookSecret(rawValue: "whsec_") == nil)
    }

    @Test(
        "patterns: * and a family match what they name; an unknown family or type is refused",
        arguments: [
            ("*", "user.signed_in", true), ("user.*", "user.signed_in", true), ("user.*", "admin.user_created", false),
            ("admin.*", "admin.webhook_created", true), ("user.signed_in", "user.signed_in", true),
            ("user.signed_in", "user.sign_in_failed", false),
        ])
    func patterns(_ pattern: String, _ type: String, _ matches: Bool) throws {
        let parsed = try #require(WebhookEventPattern(rawValue: pattern))
        #expect(parsed.matches(try #require(SecurityEventType(rawValue: type))) == matches)
    }

    @Test(
        "patterns naming no known type are refused",
        arguments: ["", "usr.*", "user.", "user.signed_out", "**", "user*"])
    func unknownPatterns(_ pattern: String) {
        #expect(WebhookEventPattern(rawValue: pattern) == nil)
    }

    @Test(
        "URLs: https always; http only to loopback and only when allowed; never credentials or a fragment",
        arguments: [
            ("https://hooks.example/limen?x=1", false, true), ("http://127.0.0.1:8080/h", false, false),
            ("http://127.0.0.1:8080/h", true, true), ("http://localhost/h", true, true),
            ("http://127.1.2.3/h", true, true), ("http://hooks.example/h", true, false),
            ("http://127.0.0.1.hooks.example/h", true, false), ("https://a:b@hooks.example/", false, false),
            ("https://hooks.example/#f", false, false), ("ftp://hooks.example/", true, false),
            ("hooks.example", true, false),
        ])
    func urls(_ url: String, _ allowHTTP: Bool, _ accepted: Bool) {
        #expect((WebhookURL(url, allowHTTPLoopback: allowHTTP) != nil) == accepted)
    }

    @Test(
        "answers: 2xx delivered; 5xx, 408 and 429 retried; any other (redirects too) rejected",
        arguments: [
            (200, WebhookAttemptOutcome.delivered), (204, .delivered), (500, .retryable), (503, .retryable),
            (408, .retryable), (429, .retryable), (400, .rejected), (401, .rejected), (404, .rejected),
            (301, .rejected), (302, .rejected), (307, .rejected), (100, .rejected),
        ])
    func outcomes(_ status: Int, _ outcome: WebhookAttemptOutcome) {
        #expect(WebhookAttemptOutcome(status: status) == outcome)
    }

    @Test("the back-off doubles up to its maximum, and no attempt is planned after the window")
    func schedule() {
        let schedule = WebhookRetrySchedule(firstBackoff: 5, maximumBackoff: 60, window: 100)
        #expect((1...6).map { schedule.backoff(afterAttempt: $0) } == [5, 10, 20, 40, 60, 60])
        let start = Date(timeIntervalSince1970: 1_000)
        let until = start.addingTimeInterval(100)
        #expect(schedule.nextAttempt(afterAttempt: 1, at: start, retryUntil: until) == start.addingTimeInterval(5))
        #expect(schedule.nextAttempt(afterAttempt: 4, at: start.addingTimeInterval(70), retryUntil: until) == nil)
        #expect(WebhookRetrySchedule().window == 24 * 60 * 60)
    }
}
