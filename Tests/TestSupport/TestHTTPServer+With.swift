import LimenTestSupport

extension TestHTTPServer {
    /// Starts a server with `routes` (as ``start(_:)``), runs `body` with it, and stops it however `body` ends.
    ///
    /// ```swift
    /// try await TestHTTPServer.withServer(["GET /ok": { _ in .json("{}") }]) { server in
    ///     #expect(try await URLSessionTransport().send(HTTPRequest(url: server.url("/ok"))).status == 200)
    /// }
    /// ```
    public static func withServer<Result>(
        _ routes: [String: Handler],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (TestHTTPServer) async throws -> Result
    ) async throws -> Result {
        try await withStopping(try await start(routes), stop: { await $0.stop() }, body)
    }
}
