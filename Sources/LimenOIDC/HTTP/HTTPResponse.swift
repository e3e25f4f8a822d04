import Foundation
import LimenWire

/// An HTTP response as an ``HTTPTransport`` returns it.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields keyed by lower-cased name.
    public private(set) var headers: [String: String]
    /// The response body (empty when there was none).
    public var body: Data

    /// Creates a response; header names are folded to lower case.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The value of a header field, looked up case-insensitively.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// Whether the status is in the 2xx range.
    public var isSuccess: Bool { (200..<300).contains(status) }

    /// The delay a `Retry-After` header asks for (delta-seconds or an HTTP date), if present and valid.
    public func retryAfter(now: Date = Date()) -> TimeInterval? {
        guard let value = header("Retry-After")?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = TimeInterval(value), seconds >= 0 { return seconds }
        guard let date = Self.httpDate(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// When the server says it sent the response: its `Date` header (RFC 9110 §6.6.1), if present and valid.
    public var date: Date? {
        header("Date").flatMap { Self.httpDate($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// An IMF-fixdate such as `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7).
    private static func httpDate(_ value: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: value)
    }
}
