import Foundation
import LimenServerStorage
import LimenWire
import Logging
import ServiceLifecycle

/// Sends the event webhooks' deliveries in the background, on every node: each pass hands new events to the
/// ``WebhookDispatcher``, then claims due deliveries (``concurrency`` at a time, for a lease, in one statement, so two
/// workers never send one at once) and posts them at once, signed (Standard Webhooks). A `2xx` delivers; no answer, a
/// `5xx`, `408` or `429` is tried again on the ``WebhookRetrySchedule`` until its window ends, then fails; any other
/// answer (a redirect too: it is not followed) fails at once. Requests never wait for any of this.
package struct WebhookWorker: Service {
    /// The webhooks, their store, and their deliveries.
    package let dispatcher: WebhookDispatcher
    /// How each POST is sent.
    package let transport: any WebhookTransport
    /// How long a POST may take before it counts as a timeout.
    package let timeout: Duration
    /// How many POSTs this node has in flight at most.
    package let concurrency: Int
    /// The time between two passes.
    package let pollInterval: Duration
    /// Told each attempt's result (the metrics count deliveries by outcome).
    package let record: @Sendable (WebhookDeliveryStatus) -> Void
    private let now: @Sendable () -> Date
    private let clock: any Clock<Duration>
    private let logger: Logger

    /// A worker posting `dispatcher`'s deliveries through `transport`.
    package init(
        dispatcher: WebhookDispatcher,
        transport: any WebhookTransport,
        timeout: Duration = .seconds(10),
        concurrency: Int = 16,
        pollInterval: Duration = .seconds(1),
        record: @escaping @Sendable (WebhookDeliveryStatus) -> Void = { _ in },
        now: @escaping @Sendable () -> Date,
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "limen.webhooks")
    ) {
        (self.dispatcher, self.transport, self.timeout, self.concurrency) = (
            dispatcher, transport, timeout, max(concurrency, 1)
        )
        (self.pollInterval, self.record, self.now, self.clock, self.logger) = (
            pollInterval, record, now, clock, logger
        )
    }

    package func run() async throws {
        await cancelWhenGracefulShutdown {
            var seen: [String: Date] = [:]
            var nextSweep = Date.distantPast
            while !Task.isCancelled {
                await pass(seen: &seen)
                if now() >= nextSweep {
                    await sweep()
                    nextSweep = now().addingTimeInterval(Self.sweepInterval)
                }
                try? await clock.sleep(for: pollInterval)
            }
        }
    }

    /// How long delivered and failed deliveries are kept, to be read through the admin API: 30 days.
    static let retention: TimeInterval = 30 * 86_400
    /// How often they are swept.
    static let sweepInterval: TimeInterval = 3600

    /// Deletes the delivered and failed deliveries older than ``retention``.
    func sweep() async {
        do {
            try await dispatcher.webhooks.store.deleteFinishedWebhookDeliveries(
                before: now().addingTimeInterval(-Self.retention))
        } catch {
            logger.warning("Old webhook deliveries could not be swept", metadata: ["error": "\(error.code)"])
        }
    }

    /// One pass: dispatches new events, then sends what is due; returns how many deliveries it finished (delivered or
    /// failed). A failing store ends the pass (the next one tries again).
    @discardableResult
    package func pass(seen: inout [String: Date]) async -> Int {
        do {
            try await dispatcher.dispatch(seen: &seen)
        } catch {
            logger.warning("Security events could not be handed to webhooks", metadata: ["error": "\(error.code)"])
        }
        return await deliverDue()
    }

    /// How long a worker holds a delivery it claimed: longer than the slowest POST, so that no other worker takes it
    /// while it is being sent.
    var lease: TimeInterval {
        TimeInterval(timeout.components.seconds) * 2 + 60
    }

    /// Sends every delivery that is due now, at most ``concurrency`` at a time; returns how many were finished. Slots
    /// are refilled as sends finish (once half of them are free, so claims stay batched), so one slow receiver holds
    /// only its own slot, never the pass.
    @discardableResult
    package func deliverDue() async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            var (inFlight, finished, drained) = (0, 0, false)
            while true {
                let free = concurrency - inFlight
                if !drained, !Task.isCancelled, free >= max(concurrency / 2, 1) {
                    let claimed = await claimDue(limit: free)
                    for (delivery, claim) in claimed {
                        group.addTask { await send(delivery, claim: claim) }
                    }
                    inFlight += claimed.count
                    drained = claimed.isEmpty
                }
                guard let done = await group.next() else { return finished }
                inFlight -= 1
                if done { finished += 1 }
            }
        }
    }

    /// Claims up to `limit` due deliveries for a lease, each with the claim that finishes it; none when the store
    /// fails (the next pass tries again).
    private func claimDue(limit: Int) async -> [(WebhookDeliveryRecord, claim: String)] {
        let claim = RandomToken.make(byteCount: 16)
        let started = now()
        do {
            return try await dispatcher.webhooks.store.claimWebhookDeliveries(
                now: started, until: started.addingTimeInterval(lease), claim: claim, limit: limit
            ).map { ($0, claim) }
        } catch {
            logger.warning("Webhook deliveries could not be read", metadata: ["error": "\(error.code)"])
            return []
        }
    }

    /// Posts one claimed delivery and records how it went; returns whether it is finished (delivered or failed).
    private func send(_ delivery: WebhookDeliveryRecord, claim: String) async -> Bool {
        let metadata: Logger.Metadata = [
            "webhook": "\(delivery.webhookID)", "delivery": "\(delivery.id)", "attempt": "\(delivery.attempts)",
        ]
        let attempt = await attempt(delivery)
        do {
            guard try await dispatcher.webhooks.store.finishWebhookDelivery(id: delivery.id, claim: claim, attempt)
            else { return false }
        } catch {
            logger.warning("A webhook delivery's result was not stored", metadata: metadata)
            return false
        }
        record(attempt.status)
        if attempt.status == .failed {
            logger.warning(
                "Webhook delivery failed",
                metadata: metadata.merging(
                    ["status": "\(attempt.statusCode.map(String.init) ?? attempt.error ?? "")"]) { $1 })
        }
        return attempt.status != .pending
    }

    /// Signs and posts `delivery`; what its result means for it.
    private func attempt(_ delivery: WebhookDeliveryRecord) async -> WebhookAttemptRecord {
        let sent = now()
        func failed(statusCode: Int? = nil, error: String? = nil) -> WebhookAttemptRecord {
            WebhookAttemptRecord(status: .failed, at: sent, nextAttemptAt: sent, statusCode: statusCode, error: error)
        }
        let webhook: WebhookRecord?
        do {
            webhook = try await dispatcher.webhooks.store.webhook(id: delivery.webhookID)
        } catch {
            return retried(delivery, at: sent, statusCode: nil, error: "storage")
        }
        guard let webhook,
            let url = WebhookURL(webhook.url, allowHTTPLoopback: dispatcher.webhooks.allowsHTTPLoopback),
            let secret = dispatcher.webhooks.secret(of: webhook)
        else { return failed(error: "webhook_unusable") }
        let body = Data(delivery.body.utf8)
        let timestamp = Int64(sent.timeIntervalSince1970.rounded(.down))
        let headers = [
            ("Content-Type", "application/json"), ("webhook-id", delivery.id), ("webhook-timestamp", "\(timestamp)"),
            ("webhook-signature", secret.signature(id: delivery.id, timestamp: timestamp, body: body)),
            ("User-Agent", "Limen-Webhooks/1"),
        ]
        do {
            let status = try await transport.post(body, headers: headers, to: url, timeout: timeout)
            switch WebhookAttemptOutcome(status: status) {
            case .delivered:
                return WebhookAttemptRecord(
                    status: .delivered, at: sent, nextAttemptAt: sent, statusCode: status, error: nil)
            case .retryable: return retried(delivery, at: sent, statusCode: status, error: nil)
            case .rejected: return failed(statusCode: status)
            }
        } catch {
            return retried(delivery, at: sent, statusCode: nil, error: error.code)
        }
    }

    /// A transient failure of `delivery` at `sent`: pending until its next attempt, or failed when the schedule's
    /// window is over.
    private func retried(_ delivery: WebhookDeliveryRecord, at sent: Date, statusCode: Int?, error: String?)
        -> WebhookAttemptRecord
    {
        let next = dispatcher.schedule.nextAttempt(
            afterAttempt: delivery.attempts, at: sent, retryUntil: delivery.retryUntil)
        return WebhookAttemptRecord(
            status: next == nil ? .failed : .pending, at: sent, nextAttemptAt: next ?? sent, statusCode: statusCode,
            error: error)
    }
}
