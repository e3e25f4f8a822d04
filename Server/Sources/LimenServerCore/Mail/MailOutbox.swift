import Foundation
import LimenServerStorage
import LimenWire
import NIOConcurrencyHelpers

/// Where every email waits to be sent: a request only writes the message to the store's outbox, sealed, and returns;
/// a ``MailOutboxWorker`` on this node or another delivers it. So a request's time never tells whether an address has
/// an account, and a restart loses nothing.
///
/// ```swift
/// try await provider.mailOutbox.enqueue(
///     AccountNotices.message(.passwordChanged, to: user.email, issuer: provider.issuer.current))
/// ```
package struct MailOutbox: Sendable {
    /// How long a worker holds a message it claimed: longer than the slowest delivery with the mailer's own retries
    /// (SMTP: three tries of up to a minute each), so that no other worker takes it while it is being sent.
    static let lease: TimeInterval = 5 * 60
    /// How long a notice (no code) waits to be delivered before it is dropped.
    static let noticeLifetime: TimeInterval = 24 * 60 * 60

    /// Where the messages wait.
    package let store: any MailOutboxStore
    /// Seals the messages at rest (they hold codes and links).
    package let seal: DerivedKeySeal
    /// The clock.
    package let now: @Sendable () -> Date
    /// Wakes this node's worker after an insert.
    let signal = MailOutboxSignal()

    /// An outbox over `store`, sealing with `keys`.
    package init(store: any MailOutboxStore, keys: DerivedKeys, now: @escaping @Sendable () -> Date) {
        (self.store, self.now) = (store, now)
        seal = DerivedKeySeal(keys: keys, purpose: .mailOutbox)
    }

    /// Writes `message` to the outbox and wakes this node's worker: one insert, whatever the transport. A code's
    /// message expires with the code (``EmailCodes/lifetime``), a notice after ``noticeLifetime``.
    package func enqueue(_ message: MailMessage) async throws(StorageError) {
        let created = now()
        let id = Self.messageID(at: created)
        let lifetime = message.kind == .code ? EmailCodes.lifetime : Self.noticeLifetime
        let sealed: Data
        do {
            sealed = try seal.seal(try JSONEncoder().encode(message), context: Self.context(id))
        } catch {
            throw .queryFailed("sealing an outbox message failed")
        }
        try await store.insertOutboxMail(
            OutboxMailRecord(
                id: id, sealed: sealed, claimedUntil: created, createdAt: created,
                expiresAt: created.addingTimeInterval(lifetime)))
        signal.notify()
    }

    /// The message `mail` holds, or `nil` when it does not open (altered, or sealed under another master key).
    package func open(_ mail: OutboxMailRecord) -> MailMessage? {
        seal.open(mail.sealed, context: Self.context(mail.id)).flatMap {
            try? JSONDecoder().decode(MailMessage.self, from: $0)
        }
    }

    /// How many messages this process has written, for ``messageID(at:)``.
    private static let written = NIOLockedValueBox<UInt32>(0)

    /// A new message's id: its time in milliseconds and this process's count of messages, both in fixed-width hex, then
    /// 16 random bytes. Ids sort in the order a node wrote its messages, even within one instant, and the worker
    /// delivers a recipient's messages in that order (``MailOutboxWorker/queuesByRecipient(_:)``).
    static func messageID(at time: Date) -> String {
        let count = written.withLockedValue { count in
            defer { count &+= 1 }
            return count
        }
        let milliseconds = UInt64(max(time.timeIntervalSince1970 * 1000, 0))
        return String(milliseconds, radix: 16).leftPadded(to: 12) + String(count, radix: 16).leftPadded(to: 8) + "-"
            + RandomToken.make(byteCount: 16)
    }

    private static func context(_ id: String) -> String {
        "mail-outbox|\(id)"
    }
}

/// The wake-up call from a request that wrote to the outbox to this node's worker: at most one waiting, so a burst of
/// inserts wakes the worker once more, not once each.
final class MailOutboxSignal: Sendable {
    /// What the worker waits on.
    let wakeUps: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    package init() {
        (wakeUps, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Wakes the worker (or lets its next wait end at once).
    package func notify() {
        continuation.yield()
    }
}

extension String {
    /// The string with `0`s before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(width - count, 0)) + self
    }
}
