import Foundation

/// A space-separated scope (RFC 6749 §3.3) as a set of tokens.
package struct Scope: Sendable, Equatable {
    /// `offline_access` (OpenID Connect Core §11): refresh tokens that outlive the browser session.
    package static let offlineAccess = "offline_access"

    /// The scope tokens.
    package let values: Set<String>

    /// Parses a scope string; repeated spaces are tolerated.
    package init(_ string: String) {
        values = Set(string.split(separator: " ").map(String.init))
    }

    /// Whether `value` is one of the tokens.
    package func contains(_ value: String) -> Bool { values.contains(value) }

    /// Whether every token of `other` is one of these.
    package func includes(_ other: Scope) -> Bool { other.values.isSubset(of: values) }
}
