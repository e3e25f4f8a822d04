import Foundation
import ServiceLifecycle

/// Keeps the key sets of the issuers Limen trusts (token exchange's trusted issuers, Sign in with Apple) fresh in the
/// background: fetched when the server starts and again before they expire, so that a request waits on an issuer only
/// when this could not reach it (then the request's own fetch, with its back-off, is the fallback).
///
/// ```swift
/// let refresher = TrustedIssuerKeyRefresher(verifiers: [exchange.verifier])
/// // a service of the application: fetches at once, then every five minutes what expires within ten
/// ```
public struct TrustedIssuerKeyRefresher: Service {
    /// How often it looks.
    public let interval: Duration
    private let verifiers: [ExternalTokenVerifier]
    private let clock: any Clock<Duration>

    /// A refresher of `verifiers`' key sets, looking every `interval` on `clock`.
    package init(
        verifiers: [ExternalTokenVerifier],
        interval: Duration = .seconds(300),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.verifiers = verifiers.filter(\.isEnabled)
        self.interval = interval
        self.clock = clock
    }

    /// Fetches every key set now, then looks every ``interval`` until the application stops; with no issuer to
    /// trust it only waits for the stop. A key set that cannot be fetched at start counts towards its issuer's
    /// back-off, as a request's fetch does, so an issuer that is down is not called more often for being looked after.
    public func run() async throws {
        guard !verifiers.isEmpty else {
            // Returning would end the application: a service that ends early shuts its group down.
            try? await gracefulShutdown()
            return
        }
        await PeriodicTask.run(every: interval, on: clock, immediately: true) { await refreshOnce() }
    }

    /// Fetches the key sets that are missing or expire within two intervals (so that one missed look costs nothing).
    public func refreshOnce() async {
        let margin = 2 * TimeInterval(interval.components.seconds)
        for verifier in verifiers {
            await verifier.refreshKeys(expiringWithin: margin)
        }
    }
}
