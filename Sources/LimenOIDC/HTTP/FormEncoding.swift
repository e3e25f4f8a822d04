import Foundation

/// `application/x-www-form-urlencoded` encoding and decoding (WHATWG URL standard, as OAuth 2.0 uses it).
public enum FormEncoding {
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    /// Percent-encodes one name or value; a space becomes `%20`.
    public static func escape(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// Encodes name/value pairs in the order given.
    public static func encode(_ fields: [(String, String)]) -> String {
        fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    /// Decodes a form or query string into pairs, in order; `+` is a space.
    public static func decode(_ string: String) -> [(String, String)] {
        string.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func unescape(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }
}

extension FormEncoding {
    /// `url` with `fields` added to its query, keeping any query it already has.
    public static func appending(_ fields: [(String, String)], to url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        let existing = components.percentEncodedQuery.map { $0 + "&" } ?? ""
        components.percentEncodedQuery = existing + encode(fields)
        return components.url ?? url
    }

    /// The pairs whose value is present, in order.
    public static func present(_ fields: [(String, String?)]) -> [(String, String)] {
        fields.compactMap { name, value in value.map { (name, $0) } }
    }
}
