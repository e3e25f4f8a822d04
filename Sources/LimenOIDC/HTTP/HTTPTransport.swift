import Foundation
import LimenWire

/// The seam through which every Limen component talks HTTP.
///
/// The default is ``URLSessionTransport``. Wrap a transport to add retries, pinning or logging, or replace it in
/// tests. A transport returns every HTTP response, whatever its status; it throws only a `NetworkError` for
/// failures below HTTP (offline, timeout, TLS, dropped connection).
public protocol HTTPTransport: Sendable {
    /// Sends a request and returns the response, or throws a `NetworkError`.
    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse
}
