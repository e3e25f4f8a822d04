import Foundation
import LimenTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A page as the test browser received it.
struct BrowserPage: Sendable {
    /// The HTTP status.
    let status: Int
    /// Header fields keyed by lower-cased name.
    let headers: [String: String]
    /// The body as UTF-8 text.
    let body: String

    /// A header by name, case-insensitively.
    func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// The pages a test browser saw, in order.
actor PageLog {
    private(set) var pages: [BrowserPage] = []

    func append(_ page: BrowserPage) { pages.append(page) }
}

/// Plays the system browser with URLSession: reads the redirect URI out of an authorization URL, as the
/// provider would, and sends requests to the loopback listener.
enum TestBrowser {
    /// A made-up authorization URL that carries `redirectURI` as its `redirect_uri` parameter.
    static func authorizationURL(redirectURI: URL) -> URL {
        var components = URLComponents(string: "https://idp.example/authorize")!
        components.queryItems = [
            URLQueryItem(name: "response_type", value: "code"),
            URLQueryItem(name: "client_id", value: "cli"),
            URLQueryItem(name: "state", value: "st-123"),
            URLQueryItem(name: "redirect_uri", value: redirectURI.absoluteString),
        ]
        return components.url!
    }

    /// The `redirect_uri` parameter of an authorization URL.
    static func redirectURI(in authorizationURL: URL) throws -> URL {
        let components = try #require(URLComponents(url: authorizationURL, resolvingAgainstBaseURL: false))
        let value = try #require(components.queryItems?.first { $0.name == "redirect_uri" }?.value)
        return try #require(URL(string: value))
    }

    /// `redirectURI` with `query` appended, as the provider redirects.
    static func callback(_ redirectURI: URL, query: String) throws -> URL {
        try #require(URL(string: redirectURI.absoluteString + "?" + query))
    }

    /// Sends one request with a fresh session (no connection reuse between calls).
    static func load(_ url: URL, method: String = "GET") async throws -> BrowserPage {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        request.httpMethod = method
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return BrowserPage(status: http.statusCode, headers: headers, body: String(decoding: data, as: UTF8.self))
    }

    /// Whether nothing of this process is bound to `url`'s port any more (Linux; elsewhere: ``connectionRefused(_:)``).
    /// The port itself may stay open a while in a child process another test started as the listener was opened (it
    /// inherits the socket), so the kernel's answer to a connection is not the listener's.
    static func portReleased(_ url: URL) -> Bool {
        #if os(Linux)
            guard let port = url.port.flatMap(UInt16.init(exactly:)) else { return false }
            return !IPv4Socket.isHeldByThisProcess(port: port)
        #else
            return connectionRefused(url)
        #endif
    }

    /// Whether a new TCP connection to `url`'s IPv4 host and port is refused (nothing listens there).
    ///
    /// A plain `connect(2)` rather than URLSession, so the answer is the kernel's (`ECONNREFUSED`) and not an HTTP
    /// stack's mapping of it.
    static func connectionRefused(_ url: URL) -> Bool {
        guard let host = url.host, let port = url.port.flatMap(UInt16.init(exactly:)),
            let outcome = IPv4Socket.attempt({ connect($0, $1, $2) }, host: host, port: port)
        else { return false }
        return outcome.result != 0 && outcome.error == ECONNREFUSED
    }
}
