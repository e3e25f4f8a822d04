import Foundation
import LimenWire

/// The target URI of a DPoP proof (`htu`, RFC 9449 §4.2) or of a request, in the form two are compared in: RFC 9449
/// §4.3 step 9 ignores the query and fragment, and allows RFC 3986 syntax-based and scheme-based normalisation.
///
/// ```swift
/// DPoPTargetURI("HTTPS://Example.COM:443/a/./b/%7euser?x=1#f") == DPoPTargetURI("https://example.com/a/b/~user")
/// ```
public struct DPoPTargetURI: Sendable, Hashable, CustomStringConvertible {
    /// The normalised URI: `scheme://host[:port]/path`.
    public let description: String

    /// The normalised form of `uri`, or `nil` unless it is an absolute `http` or `https` URI (RFC 3986, with nothing
    /// left unencoded that must be encoded) with a host and no user information.
    ///
    /// Normalisation (RFC 3986 §6.2.2–6.2.3): the origin as ``WebOrigin`` writes it; in the path, percent-encoded
    /// unreserved characters decoded and other percent-encodings in upper case, `.` and `..` segments removed, an
    /// empty path written `/`. The query and fragment are dropped.
    public init?(_ uri: String) {
        // Strictly: by default URLComponents percent-encodes what RFC 3986 does not allow (`%zz` would read as `%25zz`).
        guard let components = URLComponents(string: uri, encodingInvalidCharacters: false),
            let origin = WebOrigin(components), let path = PercentEncoding.normalized(components.percentEncodedPath)
        else { return nil }
        description = origin.description + Self.removingDotSegments(path.isEmpty ? "/" : path)
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
}
