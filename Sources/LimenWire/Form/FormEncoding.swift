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
    ///
    /// Fields split on the bytes `&` and `=` (WHATWG URL §5.1), so a combining mark after a separator does not hide
    /// it. A name or value with a malformed escape (`%ZZ`) is kept as sent. Parts with nothing escaped, such as
    /// base64url tokens, skip percent-decoding: on a token request that is most of the cost of reading the form.
    public static func decode(_ string: String) -> [(String, String)] {
        string.utf8.split(separator: UInt8(ascii: "&")).map { pair in
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            return (unescape(parts[0]), parts.count > 1 ? unescape(parts[1]) : "")
        }
    }

    private static func unescape(_ part: Substring.UTF8View) -> String {
        let text = Substring(part)
        guard part.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
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
