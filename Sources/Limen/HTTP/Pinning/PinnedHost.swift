import Foundation

/// The keys one host may present: its pins, until when they hold, and whether a mismatch is refused or only reported.
///
/// ```swift
/// let host = try PinnedHost(
///     "id.example.com",
///     pins: ["sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=", "sha256/YLh1dUR9y6Kja30RrAn7JKnbQG/uEtLMkBgFF2Fuihg="],
///     expires: Date(timeIntervalSinceNow: 180 * 24 * 3600)
/// )
/// ```
///
/// The host matches exactly, ignoring letter case and a final dot: `example.com`'s pins do not cover
/// `id.example.com`. Pin each host the SDK talks to (the issuer and any other host its discovery document names).
public struct PinnedHost: Sendable, Equatable {
    /// The host name, in lower case.
    public let host: String
    /// The keys accepted: some certificate of the chain the host presents must have one of them.
    public let pins: Set<SPKIPin>
    /// When the pins stop being checked (`nil`: never), so that an app no longer updated does not lock itself out
    /// once every pinned key has been replaced.
    public let expires: Date?
    /// Whether a chain matching no pin is refused or only reported.
    public let mode: PinningMode

    /// Pins the keys of a host.
    /// - Parameters:
    ///   - host: A host name alone, such as `id.example.com` (no scheme, port, path or wildcard).
    ///   - pins: At least two distinct pins (``SPKIPin``'s text, with or without `sha256/`): the key in use and a
    ///     backup key kept offline, so that a compromised or lost key can be replaced without locking the app out.
    ///   - expires: When the pins stop being checked; `nil` for never.
    ///   - mode: ``PinningMode/enforce`` (the default) or ``PinningMode/reportOnly``.
    /// - Throws: ``ConfigurationError/invalidPinnedHost(_:)``, ``ConfigurationError/tooFewPins(host:count:)``, or a
    ///   pin's ``ConfigurationError/pinNotBase64(_:)`` or ``ConfigurationError/pinWrongLength(_:bytes:)``.
    public init(_ host: String, pins: [String], expires: Date? = nil, mode: PinningMode = .enforce)
        throws(ConfigurationError)
    {
        guard let name = Self.hostName(host) else { throw .invalidPinnedHost(host) }
        var parsed: Set<SPKIPin> = []
        for pin in pins { parsed.insert(try SPKIPin(pin)) }
        guard parsed.count >= 2 else { throw .tooFewPins(host: name, count: parsed.count) }
        self.host = name
        self.pins = parsed
        self.expires = expires
        self.mode = mode
    }

    /// Whether the pins are checked at `date`: before ``expires``.
    public func isActive(at date: Date) -> Bool {
        expires.map { date < $0 } ?? true
    }

    /// `host` as pins are keyed: lower case, without a final dot; `nil` when it is not a host name alone.
    static func hostName(_ host: String) -> String? {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let forbidden = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "/\\*@?#%"))
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ !forbidden.contains($0) }) else { return nil }
        // One colon is a port (`host:443`); an IPv6 address has several.
        guard name.count(where: { $0 == ":" }) != 1 else { return nil }
        return name
    }
}

/// What happens when a pinned host presents a chain whose keys match none of its pins.
public enum PinningMode: String, Sendable, Equatable, Codable {
    /// The connection is refused: the request fails with ``LimenError/pinningFailed(host:)``, and
    /// ``AuthEvent/pinningFailed(_:)`` is emitted.
    case enforce
    /// The request goes on; ``AuthEvent/pinningFailed(_:)`` is emitted. For trying pins out before enforcing them.
    case reportOnly
}
