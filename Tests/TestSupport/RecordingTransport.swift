import Foundation
import LimenOIDC

/// An ``HTTPTransport`` for tests: answers canned responses per URL and records every request.
///
/// Answers can be changed mid-test (for example to rotate keys), and a URL can be held so that requests wait until
/// ``release(_:)``, which lets a test line up concurrent callers deterministically.
///
/// ```swift
/// let transport = RecordingTransport()
/// await transport.respond(to: jwksURL, json: keys.jwksJSON)
/// …
/// #expect(await transport.requestCount(for: jwksURL) == 1)
/// ```
public actor RecordingTransport: HTTPTransport {
    private var answers: [URL: Result<HTTPResponse, NetworkError>] = [:]
    private var held: Set<URL> = []
    private var waiting: [URL: [CheckedContinuation<Void, Never>]] = [:]
    /// Every request received, in order.
    public private(set) var requests: [HTTPRequest] = []

    /// Creates a transport that answers 404 to every URL until told otherwise.
    public init() {}

    /// Answers requests to `url` with `response` from now on.
    public func respond(to url: URL, with response: HTTPResponse) {
        answers[url] = .success(response)
    }

    /// Answers requests to `url` with a JSON body from now on.
    public func respond(to url: URL, json: String, status: Int = 200) {
        respond(
            to: url,
            with: HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(json.utf8)))
    }

    /// Fails requests to `url` with `error` from now on.
    public func fail(_ url: URL, with error: NetworkError) {
        answers[url] = .failure(error)
    }

    /// Makes requests to `url` wait until ``release(_:)``.
    public func hold(_ url: URL) {
        held.insert(url)
    }

    /// Lets waiting and future requests to `url` through.
    public func release(_ url: URL) {
        held.remove(url)
        for continuation in waiting.removeValue(forKey: url) ?? [] {
            continuation.resume()
        }
    }

    /// How many requests to `url` are waiting on ``hold(_:)``.
    public func waitingCount(for url: URL) -> Int {
        waiting[url]?.count ?? 0
    }

    /// How many requests went to `url`.
    public func requestCount(for url: URL) -> Int {
        requests.filter { $0.url == url }.count
    }

    /// Records the request, waits while its URL is held, then answers it.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        requests.append(request)
        if held.contains(request.url) {
            await withCheckedContinuation { waiting[request.url, default: []].append($0) }
        }
        return try (answers[request.url] ?? .success(HTTPResponse(status: 404))).get()
    }
}
