import Foundation
import HTTPTypes
import LimenTestSupport
import LimenWire
import Logging
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerStorage

/// Issue 25 §1.2: PostgreSQL goes away under load and comes back. The database is cut off behind an ``OutageProxy``
/// (every connection closed, new ones refused), as a restart does, without restarting the PostgreSQL other tests share.
@Suite(
    "The database goes away and comes back: unavailable, never a crash or a hang, and served again",
    .enabled(if: PostgresTestDatabase.unavailableReason == nil),
    // Against a hang only: beside the whole suite, a PostgreSQL test waits minutes for its turn to make a database.
    .timeLimit(.minutes(10)))
struct DatabaseOutageTests {
    private static let clientID = "outage-app"

    @Test("the store fails at once as unavailable while the database is away, then serves many requests at once")
    func storeOutage() async throws {
        try await Self.withProxiedDatabase { _, proxied, proxy in
            try await Self.outage(url: proxied, proxy: proxy)
        }
    }

    @Test("limen-server answers 503 while the database is away, then refreshes every session, still running")
    func serverOutage() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await Self.withProxiedDatabase { direct, proxied, proxy in
            let tokens = try await StoredSessions.signIn(
                count: 8, clientID: Self.clientID, in: directory, databaseURL: direct)
            try await Self.serverOutage(tokens, directory: directory, url: proxied, proxy: proxy)
        }
    }

    /// Runs `body` with a fresh database's URL, the same database's URL through a proxy, and the proxy; drops both
    /// however `body` ends.
    private static func withProxiedDatabase(
        _ body: (_ direct: String, _ proxied: String, OutageProxy) async throws -> Void
    ) async throws {
        let made = try await PostgresTestDatabase.make()
        await made.store.close()
        let proxy = try await Self.proxy(to: made.url)
        do {
            try await body(made.url, try Self.url(made.url, through: proxy), proxy)
        } catch {
            await proxy.close()
            await made.cleanup()
            throw error
        }
        await proxy.close()
        await made.cleanup()
    }

    /// Reads and writes through a store of 4 connections before, during and after an outage.
    private static func outage(url: String, proxy: OutageProxy) async throws {
        let store = try PostgresStore.connect(
            url: url, pool: PostgresConnectionPool.Settings(size: 4, retryDelay: .zero),
            logger: .init(label: "test"))
        do {
            let before = UserRecord(
                id: "before", email: "before@example.com", createdAt: Date(timeIntervalSince1970: 0))
            try await store.insertUserIfAbsent(before)
            #expect(try await reads(16, of: "before", in: store).allSatisfy { (try? $0.get()) != nil })

            await proxy.cut()
            for result in try await reads(16, of: "before", in: store) {
                guard case .failure(.unavailable) = result else {
                    Issue.record("a read while the database was away: \(result)")
                    continue
                }
            }

            proxy.restore()
            // postgres-nio's pool stopped the process here, on more requests than connections after an outage.
            #expect(try await reads(32, of: "before", in: store).allSatisfy { (try? $0.get())?.email == before.email })
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// `count` reads of user `id` at once.
    private static func reads(_ count: Int, of id: String, in store: PostgresStore) async throws
        -> [Result<UserRecord?, StorageError>]
    {
        await withTaskGroup(of: Result<UserRecord?, StorageError>.self) { group in
            for _ in 0..<count {
                group.addTask {
                    do throws(StorageError) {
                        return .success(try await store.user(id: id))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Requests besides a refresh that need the database: the sign-in page (for a client not yet read), a flow's
    /// start, and the admin API (its token is checked against the database).
    private static let otherRequests: [(String, HTTPRequest.Method, HTTPFields, String?)] = [
        (
            "/authorize?response_type=code&client_id=outage-web&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&scope=openid"
                + "&state=s&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256",
            .get, [.accept: "text/html"], nil
        ),
        ("/flows/sign-in", .post, [.contentType: "application/json"], #"{"client_id": "outage-web"}"#),
        ("/admin/clients", .get, [.authorization: "Bearer not-the-admin-token"], nil),
    ]

    /// Refreshes `tokens` on `limen-server` over the database at `url`, before, during and after an outage.
    private static func serverOutage(_ tokens: [String], directory: TemporaryDirectory, url: String, proxy: OutageProxy)
        async throws
    {
        let port = try FreePort.find()
        let arguments = ["--host", "127.0.0.1", "--port", String(port), "--data-dir", directory.path]
        let environment = [
            "LIMEN_DATABASE_URL": url, "LIMEN_DATABASE_POOL_SIZE": String(PostgresTestDatabase.poolSize),
        ]
        let stopped = try await withServerProcess(arguments, environment: environment) { server in
            var tokens = try await refreshAll(tokens, port: port)

            await proxy.cut()
            for token in tokens {
                let refused = try await StoredSessions.refresh(token, clientID: clientID, port: port)
                #expect(refused.status == .serviceUnavailable)
                #expect(refused.json["error"]?.stringValue == "temporarily_unavailable")
                #expect(refused.headers[.retryAfter] == "1")
            }
            // The hosted pages, the flows and the admin API answer the same way, never a 500.
            for (uri, method, headers, body) in Self.otherRequests {
                let refused = try await livePage(
                    port: port, uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
                #expect(refused.status == .serviceUnavailable, "\(uri)")
                #expect(refused.headers[.retryAfter] == "1", "\(uri)")
            }

            proxy.restore()
            tokens[0] = try await firstServed(tokens[0], port: port)
            // Every chain goes on, twice, all at once.
            tokens = try await refreshAll(try await refreshAll(tokens, port: port), port: port)
            #expect(tokens.count == 8)
            return await server.stop()
        }
        #expect(stopped.status == 0, "the server did not keep running through the outage")
    }

    /// Refreshes every token at once; their successors.
    private static func refreshAll(_ tokens: [String], port: Int) async throws -> [String] {
        try await withThrowingTaskGroup(of: String.self) { group in
            for token in tokens {
                group.addTask {
                    let page = try await StoredSessions.refresh(token, clientID: clientID, port: port)
                    #expect(page.status == .ok, "\(page.json)")
                    return try #require(page.json["refresh_token"]?.stringValue)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Retries the refresh of `token` until the server serves it (it answers `503` until its pool reconnects, a
    /// quarter of a second after a failed attempt), for at most 5 seconds: the successor.
    private static func firstServed(_ token: String, port: Int) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let page = try await StoredSessions.refresh(token, clientID: clientID, port: port)
            if page.status == .ok { return try #require(page.json["refresh_token"]?.stringValue) }
            #expect(page.status == .serviceUnavailable)
            try #require(ContinuousClock.now < deadline, "the server did not reconnect within 5 s")
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    private static func proxy(to url: String) async throws -> OutageProxy {
        let components = try #require(URLComponents(string: url))
        return try await OutageProxy.start(to: try #require(components.host), port: components.port ?? 5432)
    }

    /// `url` with the proxy's port.
    private static func url(_ url: String, through proxy: OutageProxy) throws -> String {
        var components = try #require(URLComponents(string: url))
        (components.host, components.port) = ("127.0.0.1", proxy.port)
        return try #require(components.string)
    }
}
