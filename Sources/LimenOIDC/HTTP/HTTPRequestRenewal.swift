import Foundation

/// How a request is made again for a repeated attempt (``HTTPRequest/renewal``): a transport that repeats requests
/// (Limen's `RetryingTransport`) asks it before every attempt after the first, so that what must not be sent twice is
/// made anew. ``DPoPBinding`` gives each request it proves one that mints a fresh proof — a new `jti`, the current
/// `iat`, the server's latest nonce, the same `ath` — since a server refuses a proof it has seen (RFC 9449 §11.1).
///
/// ```swift
/// var request = HTTPRequest(url: api)
/// request.renewal = HTTPRequestRenewal { request, _ in
///     var again = request
///     again.headers["Request-Id"] = UUID().uuidString
///     return again
/// }
/// ```
public struct HTTPRequestRenewal: Sendable {
    private let renew: @Sendable (HTTPRequest, HTTPResponse?) async -> HTTPRequest?

    /// A renewal that makes the next attempt of a request with `renew`, given the request last sent and the answer to
    /// it (`nil` after a failure below HTTP); `renew` answers `nil` when the request cannot be made again, and it is then
    /// not repeated.
    public init(_ renew: @escaping @Sendable (_ sent: HTTPRequest, _ answer: HTTPResponse?) async -> HTTPRequest?) {
        self.renew = renew
    }

    /// The next attempt of `sent`, answered with `answer` (`nil` after a failure below HTTP); `nil` when there is none.
    public func request(after sent: HTTPRequest, answered answer: HTTPResponse?) async -> HTTPRequest? {
        await renew(sent, answer)
    }
}

extension HTTPRequestRenewal: Equatable {
    /// Always `true`: requests are compared by what they send, and a renewal sends nothing itself.
    public static func == (lhs: HTTPRequestRenewal, rhs: HTTPRequestRenewal) -> Bool { true }
}

extension HTTPRequest {
    /// This request for its next attempt, after it was answered with `answer` (`nil` after a failure below HTTP):
    /// what its ``renewal`` makes, or the request itself without one; `nil` when it must not be sent again.
    public func renewed(after answer: HTTPResponse?) async -> HTTPRequest? {
        guard let renewal else { return self }
        return await renewal.request(after: self, answered: answer)
    }
}
