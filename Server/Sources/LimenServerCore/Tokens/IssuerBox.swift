import NIOConcurrencyHelpers

/// The issuer identifier, settable once the listening port is known.
public final class IssuerBox: Sendable {
    private let value: NIOLockedValueBox<String>

    /// A box holding `issuer`.
    package init(_ issuer: String) {
        value = NIOLockedValueBox(issuer)
    }

    /// The issuer identifier.
    public var current: String { value.withLockedValue { $0 } }

    /// Replaces the issuer with `issuer` (once the port is bound).
    package func set(_ issuer: String) {
        value.withLockedValue { $0 = issuer }
    }
}
