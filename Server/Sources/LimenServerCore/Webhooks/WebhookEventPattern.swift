/// Which security events a webhook receives: `*` (all), a family such as `user.*` (every known type that starts with
/// `user.`), or one known type (`user.signed_in`). A pattern that names no known type is refused, so a typo does not
/// make a webhook that never fires.
package struct WebhookEventPattern: Sendable, Hashable {
    /// The pattern as written.
    package let rawValue: String

    /// The pattern spelled `rawValue`, or `nil` when it matches no known type.
    package init?(rawValue: String) {
        self.rawValue = rawValue
        guard rawValue == "*" || SecurityEventType.all.contains(where: { matches($0.rawValue) }) else { return nil }
    }

    /// Whether `type` is one this pattern selects.
    package func matches(_ type: SecurityEventType) -> Bool {
        matches(type.rawValue)
    }

    /// Whether the type spelled `type` is one this pattern selects.
    func matches(_ type: String) -> Bool {
        if rawValue == "*" { return true }
        if rawValue.hasSuffix(".*") { return type.hasPrefix(rawValue.dropLast()) }
        return type == rawValue
    }
}
