import Foundation
import LimenServerStorage
import LimenWire
import Logging
import ServiceLifecycle

/// Delivers the mail outbox (``MailOutbox``): wakes at once when a request of this node writes to it, and every
/// ``pollInterval`` for what other nodes wrote or what waits for a retry. Each message is claimed for
/// ``MailOutbox/lease`` in one statement, so two workers (of this node after a restart, or of another node) never
/// send it at the same time; it is deleted once delivered. A transient failure is tried again later, with
/// ``backoff`` doubling the wait; a message that fails for good, or has expired, is dropped with a warning. Neither the
/// message nor its code is ever logged.
public struct MailOutboxWorker: Service {
    /// The time between two looks at the outbox when nothing woke the worker.
    public let pollInterval: Duration
    package let outbox: MailOutbox
    package let mailer: any Mailer
    /// How many deliveries a message gets, and the wait before the next after a failure.
    let backoff: MailRetries
    private let clock: any Clock<Duration>
    private let logger: Logger

    /// A worker delivering `outbox` through `mailer`.
    package init(
        outbox: MailOutbox,
        mailer: any Mailer,
        pollInterval: Duration = .seconds(10),
        backoff: MailRetries = MailRetries(attempts: 6, firstBackoff: .seconds(20)),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "limen.mail")
    ) {
        (self.outbox, self.mailer, self.pollInterval, self.backoff) = (outbox, mailer, pollInterval, backoff)
        (self.clock, self.logger) = (clock, logger)
    }

    public func run() async throws {
        let (outbox, pollInterval, clock) = (outbox, pollInterval, clock)
        await withDiscardingTaskGroup { group in
            group.addTask {
                await PeriodicTask.run(every: pollInterval, on: clock, immediately: true) { outbox.signal.notify() }
            }
            await cancelWhenGracefulShutdown {
                for await _ in outbox.signal.wakeUps {
                    await deliverDue()
                }
            }
            group.cancelAll()
        }
    }

    /// How many messages one claim takes: those to different recipients are delivered at once, so a slow receiver
    /// holds up only its own, and their removals share the store's commits.
    static let claimSize = 16

    /// Delivers every message that is due now, ``claimSize`` at a time (``queuesByRecipient(_:)``); returns how many
    /// were delivered. A failing store ends the pass (the next wake-up tries again).
    @discardableResult
    public func deliverDue() async -> Int {
        var delivered = 0
        while !Task.isCancelled {
            let claim = RandomToken.make(byteCount: 16)
            let now = outbox.now()
            let outcomes: [Result<Bool, StorageError>]
            do {
                let mails = try await outbox.store.claimOutboxMail(
                    now: now, until: now.addingTimeInterval(MailOutbox.lease), claim: claim, limit: Self.claimSize)
                guard !mails.isEmpty else { break }
                outcomes = await withTaskGroup(of: [Result<Bool, StorageError>].self) { group in
                    for queue in Self.queuesByRecipient(mails.map { ($0, outbox.open($0)) }) {
                        group.addTask {
                            var outcomes: [Result<Bool, StorageError>] = []
                            for (mail, message) in queue {
                                do throws(StorageError) {
                                    outcomes.append(.success(try await deliver(mail, message, claim: claim, now: now)))
                                } catch {
                                    return outcomes + [.failure(error)]
                                }
                            }
                            return outcomes
                        }
                    }
                    return await group.reduce(into: []) { $0 += $1 }
                }
            } catch {
                outcomes = [.failure(error)]
            }
            delivered += outcomes.count { (try? $0.get()) == true }
            if case .failure(let error) = outcomes.first(where: { (try? $0.get()) == nil }) {
                logger.warning("The mail outbox could not be read", metadata: ["error": "\(error.code)"])
                break
            }
        }
        return delivered
    }

    /// The claimed messages in one queue per recipient, each in the order it was written: a person's messages (a
    /// code, then the one sent again) arrive in that order, while different people's go out at once. Messages that
    /// do not open make a queue of their own.
    static func queuesByRecipient(
        _ mails: [(OutboxMailRecord, MailMessage?)]
    ) -> [[(OutboxMailRecord, MailMessage?)]] {
        Dictionary(grouping: mails) { $0.1?.to }.values.map { queue in
            queue.sorted { ($0.0.createdAt, $0.0.id) < ($1.0.createdAt, $1.0.id) }
        }
    }

    /// Sends one claimed message (`nil`: it did not open); returns whether it was delivered.
    private func deliver(
        _ mail: OutboxMailRecord, _ message: MailMessage?, claim: String, now: Date
    ) async throws(StorageError) -> Bool {
        let metadata: Logger.Metadata = ["mail": "\(mail.id)", "attempt": "\(mail.attempts)"]
        guard let message else {
            logger.error("An outbox message does not open (another master key?): dropped", metadata: metadata)
            try await outbox.store.finishOutboxMail(id: mail.id, claim: claim)
            return false
        }
        do throws(MailError) {
            try await mailer.send(message)
        } catch {
            guard error.isRetryable, mail.attempts < backoff.attempts else {
                logger.warning(
                    "Mail dropped after failing", metadata: metadata.merging(["error": "\(error)"]) { $1 })
                try await outbox.store.finishOutboxMail(id: mail.id, claim: claim)
                return false
            }
            let wait = backoff.backoff(beforeRetry: mail.attempts)
            let retryAt = now.addingTimeInterval(TimeInterval(wait.components.seconds))
            try await outbox.store.retryOutboxMail(id: mail.id, claim: claim, at: retryAt)
            return false
        }
        return try await outbox.store.finishOutboxMail(id: mail.id, claim: claim)
    }
}
