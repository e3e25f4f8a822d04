import Foundation

/// The target URI of a DPoP proof (`htu`, RFC 9449 §4.2) or of a request, in the form two are compared in: RFC 9449
/// §4.3 step 9 ignores the query and fragment, and allows RFC 3986 syntax-based and scheme-based normalisation.
///
/// ```swift
/// DPoPTargetURI("HTTPS://Example.COM:443/a/./b/%7euser?x=1#f") == DPoPTargetURI("https://example.com/a/b/~user")
/// ```
public struct DPoPTargetURI: Sendable, Hashable, CustomStringConvertible {
    /// The normalised URI: `scheme://host[:port]/path`.
    public let description: String

    /// The normalised form of `uri`, or `nil` unless it is an absolute `http` or `https` URI with a host and no user
    /// information.
    ///
    /// Normalisation (RFC 3986 §6.2.2–6.2.3): the scheme and host in lower case; the port left out when it is the
    /// scheme's default (80, 443) or empty; percent-encoded unreserved characters decoded and other percent-encodings
    /// in upper case; `.` and `..` segments removed; an empty path written `/`. The query and fragment are dropped.
    public init?(_ uri: String) {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased(),
            let defaultPort = Self.defaultPorts[scheme], components.percentEncodedUser == nil,
            components.percentEncodedPassword == nil, let encodedHost = components.percentEncodedHost,
            !encodedHost.isEmpty, let host = Self.normalizedEncoding(encodedHost, lowercasingLetters: true),
            let path = Self.normalizedEncoding(components.percentEncodedPath)
        else { return nil }
        let port = components.port.flatMap { $0 == defaultPort ? nil : ":\($0)" } ?? ""
        description = scheme + "://" + host + port + Self.removingDotSegments(path.isEmpty ? "/" : path)
    }

    /// The default port of each scheme a target URI may have.
    private static let defaultPorts = ["http": 80, "https": 443]

    /// `text` with percent-encoded unreserved characters decoded and other percent-encodings in upper case
    /// (RFC 3986 §6.2.2.1–6.2.2.2), and its letters (not the digits of a percent-encoding) in lower case when
    /// `lowercasingLetters` (a host); `nil` when a `%` is not followed by two hexadecimal digits.
    static func normalizedEncoding(_ text: String, lowercasingLetters: Bool = false) -> String? {
        let letter = { (byte: UInt8) -> UInt8 in
            lowercasingLetters && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                output.append(letter(bytes[index]))
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else { return nil }
            let byte = high << 4 | low
            if isUnreserved(byte) {
                output.append(letter(byte))
            } else {
                output.append(contentsOf: [UInt8(ascii: "%"), upperHex(high), upperHex(low)])
            }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `path` (absolute) without `.` and `..` segments, as RFC 3986 §5.2.4's `remove_dot_segments` writes it.
    static func removingDotSegments(_ path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var output: [Substring] = []
        for (offset, segment) in segments.enumerated() {
            let isLast = offset == segments.count - 1
            switch segment {
            case ".":
                if isLast { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            default:
                output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }

    /// Whether `byte` is an unreserved character (RFC 3986 §2.3): a letter, a digit, `-`, `.`, `_` or `~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func upperHex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }
}
