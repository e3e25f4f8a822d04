import Foundation
import LimenOIDC

/// An ``HTTPTransport`` for tests against a real server: records every request the SDK sends, then forwards it (by
/// default over `URLSessionTransport`); once ``goOffline()`` is called it fails every request as offline instead.
///
/// ```swift
/// let transport = PassThroughTransport()
/// … // a client over it talks to limen-server
/// let bodies = await transport.requests.compactMap(\.body)
/// ```
public actor PassThroughTransport: HTTPTransport {
    private let base: any HTTPTransport
    private var isOffline = false
    private var interlude: (method: String, path: String, skipping: Int, action: @Sendable () async -> Void)?
    /// Every request sent, in order (those failed as offline included).
    public private(set) var requests: [HTTPRequest] = []

    /// Creates a transport that forwards to `base`.
    public init(forwardingTo base: any HTTPTransport = URLSessionTransport(timeout: 30)) {
        self.base = base
    }

    /// Fails every request from now on with `NetworkError.offline`.
    public func goOffline() {
        isOffline = true
    }

    /// Runs `action` once, just before forwarding a request with `method` to `path`, after letting `skipping` such
    /// requests through: to make another client's write land between two of this one's requests.
    public func beforeRequest(
        _ method: String,
        path: String,
        skipping: Int = 0,
        _ action: @escaping @Sendable () async -> Void
    ) {
        interlude = (method, path, skipping, action)
    }

    /// The requests sent with `method` to a URL whose path is `path`.
    public func requests(_ method: String, path: String) -> [HTTPRequest] {
        requests.filter { $0.method == method && $0.url.path == path }
    }

    /// Records `request`, then forwards it or fails it as offline.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        requests.append(request)
        if let pending = interlude, pending.method == request.method, pending.path == request.url.path {
            if pending.skipping == 0 {
                interlude = nil
                await pending.action()
            } else {
                interlude?.skipping -= 1
            }
        }
        if isOffline { throw .offline("the test took the network away") }
        return try await base.send(request)
    }
}
