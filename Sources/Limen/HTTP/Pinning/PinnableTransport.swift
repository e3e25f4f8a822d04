import Foundation
import LimenOIDC

/// A transport that can enforce ``CertificatePinning``: one that sees the certificate chain each server presents, or
/// wraps one that does.
///
/// When ``Configuration/pinning`` pins a host, an ``AuthClient`` sends every request through
/// ``pinned(by:)``'s transport; when its transport is not pinnable (or answers `nil`), requests to pinned hosts fail
/// with ``ConfigurationError/pinningUnavailable(host:)`` instead of going out unpinned. `URLSessionTransport` is
/// pinnable on Apple platforms (not on Linux, whose URLSession never shows the server's certificates), and
/// ``RetryingTransport`` when its base is.
public protocol PinnableTransport: HTTPTransport {
    /// This transport with every chain a server presents checked by `evaluator` after the platform's trust
    /// evaluation (``PinningEvaluator/check(host:chain:)``), the connection refused with the error it returns; `nil`
    /// when this transport cannot see the chains.
    func pinned(by evaluator: PinningEvaluator) -> (any HTTPTransport)?
}

extension Configuration {
    /// The transport an ``AuthClient`` sends through: ``transport`` itself when nothing is pinned; otherwise
    /// ``transport`` enforcing ``pinning`` behind a ``PinningGate``, each mismatch logged and given to `report`.
    func transportEnforcingPinning(report: @escaping @Sendable (PinningFailure) -> Void) -> any HTTPTransport {
        guard !pinning.isEmpty else { return transport }
        let evaluator = PinningEvaluator(pinning: pinning, now: now) { [logger] failure in
            logger.log(
                level: failure.mode == .enforce ? .error : .warning,
                "certificate pinning: the host presented none of its pinned keys",
                metadata: [
                    "host": "\(failure.host)", "mode": "\(failure.mode.rawValue)",
                    "presented": "\(failure.presentedPins.map(\.description))",
                ])
            report(failure)
        }
        if let pinned = (transport as? any PinnableTransport)?.pinned(by: evaluator) {
            return PinningGate(base: pinned, evaluator: evaluator, checksChains: true)
        }
        logger.error(
            "certificate pinning is configured but the transport cannot check certificates: requests to pinned hosts fail",
            metadata: ["transport": "\(type(of: transport))", "hosts": "\(pinning.hosts.map(\.host))"])
        return PinningGate(base: transport, evaluator: evaluator, checksChains: false)
    }
}

/// Stops, before its transport, the requests to pinned hosts that no chain check would see: all of them when the
/// transport cannot check chains (`NetworkError.pinningUnavailable(host:)`, ``LimenError/configuration(_:)`` with
/// ``ConfigurationError/pinningUnavailable(host:)`` at the SDK's surface), and those not over HTTPS, judged as a chain
/// with no certificate (refused when enforced, reported otherwise). A pinned host is never reached unpinned.
struct PinningGate: HTTPTransport {
    /// The transport that sends what passes.
    let base: any HTTPTransport
    /// The pins, the time and the report.
    let evaluator: PinningEvaluator
    /// Whether `base` checks the chains of pinned hosts.
    let checksChains: Bool

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        if let host = request.url.host, evaluator.isPinned(host) {
            guard checksChains else { throw .pinningUnavailable(host: host) }
            if request.url.scheme?.lowercased() != "https", let refusal = evaluator.check(host: host, chain: []) {
                throw refusal
            }
        }
        return try await base.send(request)
    }
}
