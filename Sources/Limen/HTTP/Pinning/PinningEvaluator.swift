import Foundation
import LimenOIDC

/// What a transport that enforces ``CertificatePinning`` asks about each chain a server presents: the pins, the
/// time, and where mismatches are reported (an ``AuthClient`` emits ``AuthEvent/pinningFailed(_:)``).
///
/// A ``PinnableTransport`` calls ``check(host:chain:)`` once the platform's trust evaluation has accepted the chain,
/// and refuses the connection with the error it returns.
public struct PinningEvaluator: Sendable {
    /// The pinned hosts.
    public let pinning: CertificatePinning
    private let now: @Sendable () -> Date
    private let report: @Sendable (PinningFailure) -> Void

    /// Creates an evaluator.
    /// - Parameters:
    ///   - pinning: The pinned hosts.
    ///   - now: The current time, compared with each host's ``PinnedHost/expires``.
    ///   - report: Called with each mismatch, refused or only reported.
    public init(
        pinning: CertificatePinning,
        now: @escaping @Sendable () -> Date = Date.init,
        report: @escaping @Sendable (PinningFailure) -> Void = { _ in }
    ) {
        self.pinning = pinning
        self.now = now
        self.report = report
    }

    /// Whether a connection to `host` must have its chain checked now (see ``CertificatePinning/isEnforced(for:at:)``):
    /// a transport that cannot check chains must refuse such a request.
    public func isPinned(_ host: String) -> Bool {
        pinning.isEnforced(for: host, at: now())
    }

    /// Checks the chain `host` presented, which the platform's trust evaluation accepted, and reports a mismatch.
    /// - Parameters:
    ///   - host: The host connected to.
    ///   - chain: The certificates in DER, leaf first.
    /// - Returns: `nil` to go on; `NetworkError.pinningFailed(host:)` when the connection must be refused.
    public func check(host: String, chain: [Data]) -> NetworkError? {
        switch pinning.evaluate(host: host, chain: chain, at: now()) {
        case .notPinned, .matched, .expired:
            return nil
        case .reported(let failure):
            report(failure)
            return nil
        case .refused(let failure):
            report(failure)
            return .pinningFailed(host: failure.host)
        }
    }
}
