import Foundation
import LimenWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``HTTPTransport``, on `URLSession` (FoundationNetworking on Linux).
///
/// Redirects are not followed (an OAuth endpoint that redirects is answered as is), cookies are not stored, and
/// authentication challenges are declined, so that a `401` with `WWW-Authenticate: Basic` comes back as a response
/// instead of hanging (swift-corelibs-foundation waits forever for an unanswered challenge).
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let declined: DeclinedChallenges

    /// Creates a transport.
    /// - Parameter timeout: Seconds before a request without progress fails with `NetworkError.timeout`.
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let declined = DeclinedChallenges()
        self.declined = declined
        session = URLSession(configuration: configuration, delegate: declined, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends the request; every HTTP status is returned, failures below HTTP become `NetworkError`.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let outcome = await perform(urlRequest)
        return try outcome.get()
    }

    private func perform(_ urlRequest: URLRequest) async -> Result<HTTPResponse, NetworkError> {
        let box = TaskBox()
        return await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>) in
                let task = session.dataTask(with: urlRequest) { [declined] data, response, error in
                    let declinedResponse = box.identifier.flatMap(declined.take)
                    continuation.resume(
                        returning: Self.outcome(
                            data: data, response: response, error: error, declined: declinedResponse,
                            request: urlRequest)
                    )
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }

    private static func outcome(
        data: Data?,
        response: URLResponse?,
        error: (any Error)?,
        declined: HTTPResponse?,
        request: URLRequest
    ) -> Result<HTTPResponse, NetworkError> {
        if let error {
            if let declined, (error as? URLError)?.code == .cancelled { return .success(declined) }
            return .failure(classify(error, url: request.url))
        }
        guard let http = response as? HTTPURLResponse else { return .failure(.invalidResponse("not HTTP")) }
        return .success(HTTPResponse(http, body: data ?? Data()))
    }

    /// Maps a Foundation error for a request to `url` to a `NetworkError` whose detail says what failed and where
    /// (``URLError/Code/failureDescription(for:)``).
    static func classify(_ error: any Error, url: URL?) -> NetworkError {
        guard let urlError = error as? URLError else { return .connectionLost(String(describing: type(of: error))) }
        let detail = urlError.code.failureDescription(for: url)
        switch urlError.code {
        case .timedOut: return .timeout
        case .cancelled: return .cancelled
        case .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed,
            .internationalRoamingOff, .dataNotAllowed:
            return .offline(detail)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            return .tls(detail)
        case .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            return .invalidResponse("URLError \(urlError.code.rawValue)")
        default:
            return .connectionLost(detail)
        }
    }
}

extension HTTPResponse {
    fileprivate init(_ http: HTTPURLResponse, body: Data) {
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        self.init(status: http.statusCode, headers: headers, body: body)
    }
}

/// Holds a data task so that Swift task cancellation can cancel it.
private final class TaskBox: @unchecked Sendable {
    // Safety: `task` and `cancelled` are only touched under `lock`.
    private let lock = NSLock()
    private var task: URLSessionDataTask?
    private var cancelled = false

    var identifier: Int? {
        lock.lock()
        defer { lock.unlock() }
        return task?.taskIdentifier
    }

    func set(_ task: URLSessionDataTask) {
        lock.lock()
        self.task = task
        let cancelNow = cancelled
        lock.unlock()
        if cancelNow { task.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let current = task
        lock.unlock()
        current?.cancel()
    }
}

/// Cancels every authentication challenge and remembers the challenge's response, so that a `401` carrying
/// `WWW-Authenticate: Basic` reaches the caller as a response (swift-corelibs-foundation otherwise waits forever).
private final class DeclinedChallenges: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    // Safety: `responses` is only touched under `lock`.
    private let lock = NSLock()
    private var responses: [Int: HTTPResponse] = [:]

    /// Takes the response whose challenge was declined for a task, if any.
    func take(_ taskIdentifier: Int) -> HTTPResponse? {
        lock.lock()
        defer { lock.unlock() }
        return responses.removeValue(forKey: taskIdentifier)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if let failure = challenge.failureResponse as? HTTPURLResponse {
            lock.lock()
            responses[task.taskIdentifier] = HTTPResponse(failure, body: Data())
            lock.unlock()
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
