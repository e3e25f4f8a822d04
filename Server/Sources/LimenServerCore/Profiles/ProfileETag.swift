import Foundation

/// The strong entity tag of a profile (RFC 9110 §8.8.3): its revision, quoted.
package enum ProfileETag {
    /// The `ETag` of `revision`.
    package static func value(revision: Int) -> String { "\"\(revision)\"" }

    /// Whether the `If-Match` field value `header` matches `revision` by strong comparison (RFC 9110 §13.1.1): `*`,
    /// or a list one of whose tags is the revision's. A weak tag (`W/"3"`) never matches.
    package static func matches(_ header: String, revision: Int) -> Bool {
        let tags = self.tags(in: header)
        return tags.contains("*") || tags.contains(value(revision: revision))
    }

    /// Whether the `If-None-Match` field value `header` matches `revision` by weak comparison (RFC 9110 §13.1.2):
    /// `*`, or a list one of whose tags, `W/` or not, is the revision's.
    package static func matchesWeakly(_ header: String, revision: Int) -> Bool {
        let tags = self.tags(in: header).map { $0.hasPrefix("W/") ? String($0.dropFirst(2)) : $0 }
        return tags.contains("*") || tags.contains(value(revision: revision))
    }

    /// The entity tags of a comma-separated list.
    private static func tags(in header: String) -> [String] {
        header.split(separator: ",").map { $0.trimmingCharacters(in: [" ", "\t"]) }
    }
}
