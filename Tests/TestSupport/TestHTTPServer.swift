import FlyingFox
import FlyingSocks
import Foundation
import LimenOIDC

/// A request as a ``TestHTTPServer`` received it.
public struct ReceivedRequest: Sendable {
    /// The method, upper-case.
    public let method: String
    /// The path without query.
    public let path: String
    /// The query parameters, in order.
    public let query: [(String, String)]
    /// Header fields keyed by lower-cased name.
    public let headers: [String: String]
    /// The raw body.
    public let body: Data

    /// The body read as a form, keyed by field name (first occurrence wins).
    public var form: [String: String] {
        Dictionary(FormEncoding.decode(String(decoding: body, as: UTF8.self)), uniquingKeysWith: { first, _ in first })
    }

    /// A header by name, case-insensitively.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// A real HTTP server on 127.0.0.1 and a random port, answering with handlers a test sets per route.
///
/// Every request is recorded, so tests can assert how many requests really reached the server.
public final class TestHTTPServer: Sendable {
    /// Handles one request.
    public typealias Handler = @Sendable (ReceivedRequest) async -> LimenOIDC.HTTPResponse

    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// Every request received, in arrival order.
    public let log = RequestLog()
    private let server: HTTPServer
    private let task: Task<Void, any Error>

    private init(server: HTTPServer, task: Task<Void, any Error>, port: UInt16) {
        self.server = server
        self.task = task
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// Starts a server; `routes` maps `"METHOD /path"` (or `"/path"` for any method) to a handler.
    public static func start(_ routes: [String: Handler]) async throws -> TestHTTPServer {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled)
        let task = Task { try await server.run() }
        // A hang guard only: FlyingFox's default of 5 s is not met when CPU-bound tests (PBKDF2 at 600,000 rounds)
        // hold the cooperative pool's threads on a loaded machine.
        try await server.waitUntilListening(timeout: 60)
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            task.cancel()
            throw TestServerError.notListening
        }
        let instance = TestHTTPServer(server: server, task: task, port: port)
        for (route, handler) in routes {
            await server.appendRoute(HTTPRoute(stringLiteral: route)) { [log = instance.log] request in
                let received = await ReceivedRequest(request)
                await log.append(received)
                return FlyingFox.HTTPResponse(await handler(received))
            }
        }
        return instance
    }

    /// A URL on this server.
    public func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    /// Stops listening and closes every connection.
    public func stop() async {
        await server.stop(timeout: 0)
        task.cancel()
    }
}

/// The requests a ``TestHTTPServer`` received.
public actor RequestLog {
    /// All requests, in arrival order.
    public private(set) var requests: [ReceivedRequest] = []

    func append(_ request: ReceivedRequest) { requests.append(request) }

    /// How many requests had this path.
    public func count(path: String) -> Int { requests.filter { $0.path == path }.count }
}

/// Why a test server could not start.
public enum TestServerError: Error {
    /// The server did not report a listening IPv4 address.
    case notListening
}

extension ReceivedRequest {
    fileprivate init(_ request: FlyingFox.HTTPRequest) async {
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.rawValue.lowercased()] = value }
        self.init(
            method: request.method.rawValue.uppercased(),
            path: request.path,
            query: request.query.map { ($0.name, $0.value) },
            headers: headers,
            body: (try? await request.bodyData) ?? Data()
        )
    }
}

extension FlyingFox.HTTPResponse {
    fileprivate init(_ response: LimenOIDC.HTTPResponse) {
        var headers = HTTPHeaders()
        for (name, value) in response.headers { headers[HTTPHeader(name)] = value }
        self.init(statusCode: HTTPStatusCode(response.status, phrase: "Status"), headers: headers, body: response.body)
    }
}

extension LimenOIDC.HTTPResponse {
    /// A JSON response from an encodable value.
    public static func json(_ value: some Encodable, status: Int = 200, headers: [String: String] = [:]) -> Self {
        var all = headers
        all["Content-Type"] = "application/json"
        return Self(status: status, headers: all, body: (try? JSONEncoder().encode(value)) ?? Data())
    }

    /// A JSON response from a literal JSON string.
    public static func json(_ literal: String, status: Int = 200, headers: [String: String] = [:]) -> Self {
        var all = headers
        all["Content-Type"] = "application/json"
        return Self(status: status, headers: all, body: Data(literal.utf8))
    }
}

extension TestHTTPServer {
    /// Metadata naming this server as issuer, with every endpoint at its conventional path.
    public func metadata(issRequired: Bool? = nil) -> ProviderMetadata {
        ProviderMetadata(
            issuer: baseURL.absoluteString,
            authorizationEndpoint: url("authorize"),
            tokenEndpoint: url("token"),
            userinfoEndpoint: url("userinfo"),
            jwksURI: url("jwks"),
            revocationEndpoint: url("revoke"),
            endSessionEndpoint: url("end_session"),
            deviceAuthorizationEndpoint: url("device_authorization"),
            authorizationResponseIssParameterSupported: issRequired
        )
    }
}
