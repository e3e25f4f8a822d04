import Foundation

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

    /// Creates a transport.
    /// - Parameter timeout: Seconds before a request without progress fails with ``NetworkError/timeout``.
    public init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: ChallengeDecliner(), delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends the request; every HTTP status is returned, failures below HTTP become ``NetworkError``.
    public func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else { throw NetworkError.invalidResponse("not HTTP") }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw Self.classify(error)
        }
    }

    /// Maps a Foundation error to a ``NetworkError``.
    static func classify(_ error: any Error) -> NetworkError {
        if error is CancellationError { return .cancelled }
        guard let urlError = error as? URLError else { return .connectionLost(String(describing: type(of: error))) }
        switch urlError.code {
        case .timedOut: return .timeout
        case .cancelled: return .cancelled
        case .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed,
            .internationalRoamingOff, .dataNotAllowed:
            return .offline(urlError.code.name)
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected,
            .clientCertificateRequired:
            return .tls(urlError.code.name)
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData:
            return .invalidResponse(urlError.code.name)
        default:
            return .connectionLost(urlError.code.name)
        }
    }
}

/// Declines every authentication challenge so that the response itself is delivered.
private final class ChallengeDecliner: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if canImport(FoundationNetworking)
            completionHandler(.rejectProtectionSpace, nil)
        #else
            let isServerTrust = challenge.protectionSpace.authenticationMethod == NSURLAuthenticationMethodServerTrust
            completionHandler(isServerTrust ? .performDefaultHandling : .rejectProtectionSpace, nil)
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

extension URLError.Code {
    fileprivate var name: String { "URLError \(rawValue)" }
}
