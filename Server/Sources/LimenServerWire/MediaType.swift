import Foundation

/// Matching a request's `Content-Type` against the one media type a route reads (RFC 9110 §8.3.1).
package enum MediaType {
    /// Whether `contentType` names exactly `expected` (a lowercase `type/subtype`), in any letter case, with or without
    /// parameters such as `charset`: `application/json; charset=utf-8` is `application/json`, while
    /// `application/jsonx` and `application/json-patch+json` are not.
    package static func matches(_ contentType: String?, _ expected: String) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.prefix { $0 != ";" }
        return mediaType.trimmingCharacters(in: [" ", "\t"]).lowercased() == expected
    }
}
