import Foundation

/// The keys each pinned host may present (``Configuration/pinning``): certificate pinning by SubjectPublicKeyInfo
/// (see <doc:PinningCertificates>).
///
/// Every request an ``AuthClient`` makes to a pinned host (discovery, keys, tokens, userinfo, flows, profile, Apple's
/// backend contract) is checked after the platform's own trust evaluation: some certificate of the chain the host
/// presents (leaf, intermediate or root) must have one of its pins. Hosts not listed are not checked.
///
/// ```swift
/// var configuration = Configuration(issuer: URL(string: "https://id.example.com")!, clientID: "ios-app")
/// configuration.pinning = try CertificatePinning([
///     PinnedHost("id.example.com", pins: [currentKeyPin, backupKeyPin])
/// ])
/// ```
public struct CertificatePinning: Sendable, Equatable {
    /// The pinned hosts, by name.
    public let hosts: [PinnedHost]

    /// No host pinned: nothing is checked beyond the platform's trust evaluation (the default).
    public init() {
        hosts = []
    }

    /// Pins the keys of `hosts`.
    /// - Throws: ``ConfigurationError/duplicatePinnedHost(_:)`` when a host appears twice.
    public init(_ hosts: [PinnedHost]) throws(ConfigurationError) {
        var seen: Set<String> = []
        for entry in hosts where !seen.insert(entry.host).inserted { throw .duplicatePinnedHost(entry.host) }
        self.hosts = hosts.sorted { $0.host < $1.host }
    }

    /// Whether no host is pinned.
    public var isEmpty: Bool { hosts.isEmpty }

    /// The pins of `host` (matched exactly, ignoring letter case and a final dot), or `nil` when it is not pinned.
    public func pins(for host: String) -> PinnedHost? {
        guard let name = PinnedHost.hostName(host) else { return nil }
        return hosts.first { $0.host == name }
    }

    /// Whether a connection to `host` at `date` must have its chain checked: the host is pinned and its pins have
    /// not expired.
    public func isEnforced(for host: String, at date: Date) -> Bool {
        pins(for: host)?.isActive(at: date) ?? false
    }

    /// Judges the certificate chain `host` presented, after the platform's trust evaluation accepted it.
    /// - Parameters:
    ///   - host: The host connected to.
    ///   - chain: The certificates in DER, leaf first. One that cannot be read matches no pin.
    ///   - date: The time of the connection, compared with ``PinnedHost/expires``.
    public func evaluate(host: String, chain: [Data], at date: Date) -> PinningVerdict {
        guard let entry = pins(for: host) else { return .notPinned }
        guard entry.isActive(at: date) else { return .expired }
        let presented = chain.map(SPKIPin.init(certificate:))
        if presented.contains(where: { $0.map(entry.pins.contains) ?? false }) { return .matched }
        let failure = PinningFailure(host: entry.host, mode: entry.mode, presentedPins: presented.compactMap { $0 })
        switch entry.mode {
        case .enforce: return .refused(failure)
        case .reportOnly: return .reported(failure)
        }
    }
}

/// What ``CertificatePinning/evaluate(host:chain:at:)`` found.
public enum PinningVerdict: Sendable, Equatable {
    /// The host has no pins: the platform's trust evaluation decides alone.
    case notPinned
    /// A certificate of the chain has one of the host's pins.
    case matched
    /// The host's pins have expired (``PinnedHost/expires``) and are no longer checked.
    case expired
    /// No certificate matches and the host's pins are enforced: the connection must be refused.
    case refused(PinningFailure)
    /// No certificate matches, but the host's pins are ``PinningMode/reportOnly``: the connection goes on.
    case reported(PinningFailure)
}

/// A pinned host presented a chain whose keys match none of its pins (``AuthEvent/pinningFailed(_:)``).
public struct PinningFailure: Sendable, Equatable {
    /// The host, in lower case.
    public let host: String
    /// Whether the connection was refused (``PinningMode/enforce``) or went on (``PinningMode/reportOnly``).
    public let mode: PinningMode
    /// The pins of the keys the host presented, leaf first (certificates that could not be read are left out): what
    /// to compare with the configuration, or to pin once the new key is known to be the server's.
    public let presentedPins: [SPKIPin]

    /// Describes a failure.
    public init(host: String, mode: PinningMode, presentedPins: [SPKIPin]) {
        self.host = host
        self.mode = mode
        self.presentedPins = presentedPins
    }
}
