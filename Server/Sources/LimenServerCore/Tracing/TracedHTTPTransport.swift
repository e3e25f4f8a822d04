import LimenOIDC
import LimenWire

/// An ``HTTPTransport`` whose every request is an ``OutgoingRequestSpan``: what the server gives the clients of upstream
/// providers, trusted issuers and Apple.
///
/// ```swift
/// let transport = TracedHTTPTransport(URLSessionTransport(timeout: 10))
/// ```
package struct TracedHTTPTransport: HTTPTransport {
    /// The transport that sends.
    package let base: any HTTPTransport

    /// Traces the requests of `base`.
    package init(_ base: any HTTPTransport) {
        self.base = base
    }

    package func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        try await OutgoingRequestSpan.run(method: request.method, url: request.url, status: \.status) {
            () throws(NetworkError) in try await base.send(request)
        }
    }
}
