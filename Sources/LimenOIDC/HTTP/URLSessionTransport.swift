import Foundation
import LimenWire

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default ``HTTPTransport``, on `URLSession` (FoundationNetworking on Linux).
///
/// Redirects are not followed (an OAuth endpoint that redirects is answered as is), cookies are not stored, and
/// authentication challenges are declined, so that a `401` with `WWW-Authenticate: Basic` comes back as a response
/// instead of hanging (swift-corelibs-foundation waits forever for an unanswered challenge). A server-trust challenge
/// (Apple platforms only) gets the system's default handling, after ``serverTrust`` when there is one.
public final class URLSessionTransport: HTTPTransport {
    /// Seconds before a request without progress fails with `NetworkError.timeout`.
    public let timeout: TimeInterval
    /// What checks each server's certificate chain beyond the platform's trust evaluation (Apple platforms only).
    public let serverTrust: (any ServerTrustCheck)?
    private let session: URLSession
    private let declined: DeclinedChallenges

    /// Creates a transport.
    /// - Parameters:
    ///   - timeout: Seconds before a request without progress fails with `NetworkError.timeout`.
    ///   - serverTrust: What checks each server's certificate chain after the platform's trust evaluation; consulted
    ///     only where URLSession delivers server-trust challenges (Apple platforms, not FoundationNetworking).
    public init(timeout: TimeInterval = 30, serverTrust: (any ServerTrustCheck)? = nil) {
        self.timeout = timeout
        self.serverTrust = serverTrust
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let declined = DeclinedChallenges(serverTrust: serverTrust)
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
                    let declinedOutcome = box.identifier.flatMap(declined.take)
                    continuation.resume(
                        returning: Self.outcome(
                            data: data, response: response, error: error, declined: declinedOutcome,
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
        declined: DeclinedChallenges.Outcome?,
        request: URLRequest
    ) -> Result<HTTPResponse, NetworkError> {
        if let error {
            switch declined {
            case .response(let response) where (error as? URLError)?.code == .cancelled: return .success(response)
            case .refused(let refusal): return .failure(refusal)
            default: return .failure(classify(error, url: request.url))
            }
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
/// A server-trust challenge is left to the system's default handling, unless the ``ServerTrustCheck`` refuses it.
private final class DeclinedChallenges: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    /// Why a task's challenge was cancelled.
    enum Outcome {
        /// An authentication challenge was declined: the task's answer is this response.
        case response(HTTPResponse)
        /// The server trust was refused: the task fails with this error.
        case refused(NetworkError)
    }

    // Safety: `outcomes` is only touched under `lock`; `serverTrust` is immutable and Sendable.
    private let lock = NSLock()
    private var outcomes: [Int: Outcome] = [:]
    private let serverTrust: (any ServerTrustCheck)?

    init(serverTrust: (any ServerTrustCheck)?) {
        self.serverTrust = serverTrust
    }

    /// Takes what a cancelled challenge of a task left, if any.
    func take(_ taskIdentifier: Int) -> Outcome? {
        lock.lock()
        defer { lock.unlock() }
        return outcomes.removeValue(forKey: taskIdentifier)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        if Self.isServerTrust(challenge) {
            guard let refusal = serverTrust?.check(challenge) else {
                completionHandler(.performDefaultHandling, nil)
                return
            }
            keep(.refused(refusal), for: task)
        } else if let failure = challenge.failureResponse as? HTTPURLResponse {
            keep(.response(HTTPResponse(failure, body: Data())), for: task)
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    private func keep(_ outcome: Outcome, for task: URLSessionTask) {
        lock.lock()
        outcomes[task.taskIdentifier] = outcome
        lock.unlock()
    }

    /// Whether `challenge` asks about the server's certificate: only Apple's URLSession asks (and, without a session
    /// delegate method, asks the task's), FoundationNetworking never does.
    private static func isServerTrust(_ challenge: URLAuthenticationChallenge) -> Bool {
        #if canImport(FoundationNetworking)
            false
        #else
            challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust
        #endif
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
