import Foundation
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A mailer that keeps what it is given (the outbox worker's tests): its first `failing` sends fail as a relay that is
/// down does, and a test can wait until it holds a number of messages.
actor RecordingMailer: Mailer {
    /// The messages delivered, in order.
    private(set) var sent: [MailMessage] = []
    private var failing: Int
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// A mailer whose first `failing` sends fail (retryable).
    init(failing: Int = 0) {
        self.failing = failing
    }

    func send(_ message: MailMessage) async throws(MailError) {
        guard failing == 0 else {
            failing -= 1
            throw MailError("the test relay is down")
        }
        sent.append(message)
        let ready = waiters.filter { $0.count <= sent.count }
        waiters.removeAll { $0.count <= sent.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Returns once `count` messages were delivered.
    func waitUntilSent(_ count: Int) async {
        guard sent.count < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }
}

/// A message for the outbox tests.
func outboxMessage(_ number: Int, code: String = "314159") -> MailMessage {
    MailMessage(
        to: "ada\(number)@example.com", subject: "Your code: \(code)", text: "Your code is \(code).",
        html: "<p>\(code)</p>", kind: .code, purpose: "email-code", code: code,
        link: "https://app.example/#code=\(code)")
}
