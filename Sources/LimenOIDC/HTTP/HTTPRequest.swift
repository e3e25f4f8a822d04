import Foundation
import LimenWire

/// An HTTP request as Limen sends it through an ``HTTPTransport``.
///
/// A plain value so that transports, retry policies and tests can inspect and rewrite it freely.
public struct HTTPRequest: Sendable, Equatable {
    /// The HTTP method, such as `GET` or `POST`.
    public var method: String
    /// The absolute URL the request goes to.
    public var url: URL
    /// Header fields. Names are compared case-insensitively by ``HTTPResponse`` only; send them as written.
    public var headers: [String: String]
    /// The request body, if any.
    public var body: Data?
    /// Whether repeating the request cannot change server state beyond the first attempt.
    ///
    /// Retry policies repeat idempotent requests after any transient failure, and other requests only when they
    /// provably never reached the server.
    public var isIdempotent: Bool
    /// How the request is made again for a repeated attempt (a DPoP proof is minted anew); `nil`: it is sent again as
    /// it is. See ``HTTPRequestRenewal``.
    public var renewal: HTTPRequestRenewal?

    /// Creates a request.
    public init(
        method: String = "GET",
        url: URL,
        headers: [String: String] = [:],
        body: Data? = nil,
        isIdempotent: Bool? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.isIdempotent = isIdempotent ?? ["GET", "HEAD", "OPTIONS"].contains(method.uppercased())
    }

    /// Creates a `POST` request whose body is `application/x-www-form-urlencoded`.
    ///
    /// ```swift
    /// let request = HTTPRequest.form(url: tokenEndpoint, ["grant_type": "refresh_token", "refresh_token": rt])
    /// ```
    public static func form(url: URL, _ fields: [(String, String)], headers: [String: String] = [:]) -> HTTPRequest {
        var allHeaders = headers
        allHeaders["Content-Type"] = "application/x-www-form-urlencoded"
        allHeaders["Accept"] = "application/json"
        return HTTPRequest(method: "POST", url: url, headers: allHeaders, body: Data(FormEncoding.encode(fields).utf8))
    }
}
