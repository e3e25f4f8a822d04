import Foundation

/// `application/x-www-form-urlencoded` encoding and decoding (WHATWG URL standard, as OAuth 2.0 uses it).
public enum FormEncoding {

    /// Percent-encodes one name or value: every UTF-8 byte but RFC 3986's unreserved characters becomes `%XX`, so a
    /// space is `%20`. Byte by byte rather than `addingPercentEncoding`, which on Linux went through `NSString` and
    /// cost a third of building a flow request.
    public static func escape(_ value: String) -> String {
        guard !value.utf8.allSatisfy(PercentEncoding.isUnreserved) else { return value }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            if PercentEncoding.isUnreserved(byte) {
                escaped.append(byte)
            } else {
                escaped += PercentEncoding.escape(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
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
        return percentDecoded(spaced.utf8) ?? spaced
    }

    /// The text the `%XX` escapes in `utf8` stand for; `nil` for a malformed escape or bytes that are not UTF-8.
    ///
    /// Not `removingPercentEncoding`, which drops a leading U+FEFF (byte order mark): `%EF%BB%BFcode` would read as
    /// `code`, so two different fields would read as one. WHATWG's form decoding keeps it ("UTF-8 decode without BOM").
    private static func percentDecoded(_ utf8: String.UTF8View) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(PercentEncoding.hexValue),
                let low = iterator.next().flatMap(PercentEncoding.hexValue)
            else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
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
