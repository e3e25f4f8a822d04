import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// A minimal OpenID provider on a ``TestHTTPServer``: discovery, JWKS and a token endpoint that counts refreshes.
/// The test plays the authorization endpoint itself (it reads the URL the CLI prints and delivers a code).
final class CountingProvider: Sendable {
    static let clientID = "cli-app"
    static let code = "code-from-the-test"
    static let refreshToken = "refresh-token-1"

    let server: TestHTTPServer
    private let refreshes = Locked(0)
    private let nonce = Locked<String?>(nil)

    private init(server: TestHTTPServer) {
        self.server = server
    }

    /// Runs `body` with a started provider and stops it however `body` ends.
    static func with(_ body: (CountingProvider) async throws -> Void) async throws {
        try await withStopping(try await start(), stop: { await $0.server.stop() }, body)
    }

    private static func start() async throws -> CountingProvider {
        let key = try await TestSigningKey.es256()
        let current = Locked<CountingProvider?>(nil)
        let server = try await TestHTTPServer.start([
            "GET /.well-known/openid-configuration": { _ in
                guard let provider = current.withLock({ $0 }) else { return .json("{}", status: 503) }
                return .json(provider.server.metadata())
            },
            "GET /jwks": { _ in .json(TestSigningKey.jwksJSON([key])) },
            "POST /token": { request in
                guard let provider = current.withLock({ $0 }) else { return .json("{}", status: 503) }
                return provider.token(request, key: key)
            },
        ])
        let provider = CountingProvider(server: server)
        current.withLock { $0 = provider }
        return provider
    }

    /// How many refresh requests reached the token endpoint.
    var refreshCount: Int { refreshes.withLock { $0 } }

    /// Remembers the nonce of the authorization request, for the ID token.
    func expect(nonce: String) { self.nonce.withLock { $0 = nonce } }

    private func token(_ request: ReceivedRequest, key: TestSigningKey) -> LimenOIDC.HTTPResponse {
        let form = request.form
        switch form["grant_type"] {
        case "authorization_code" where form["code"] == Self.code:
            let now = Int(Date().timeIntervalSince1970)
            var claims: [String: JSONValue] = [
                "iss": .string(server.baseURL.absoluteString), "sub": "alice", "aud": .string(Self.clientID),
                "iat": .number(Double(now)), "exp": .number(Double(now + 600)),
            ]
            claims["nonce"] = nonce.withLock { $0 }.map(JSONValue.string)
            guard let idToken = try? key.sign(claims) else { return .json(#"{"error":"server_error"}"#, status: 500) }
            let response: [String: JSONValue] = [
                "access_token": "initial-access-token", "token_type": "Bearer", "expires_in": 600,
                "refresh_token": .string(Self.refreshToken), "id_token": .string(idToken),
            ]
            return .json(response)
        case "refresh_token" where form["refresh_token"] == Self.refreshToken:
            let count = refreshes.withLock { count in
                count += 1
                return count
            }
            return .json(
                [
                    "access_token": .string("refreshed-access-token-\(count)"), "token_type": "Bearer",
                    "expires_in": 600,
                ] as [String: JSONValue])
        default:
            return .json(#"{"error":"invalid_grant"}"#, status: 400)
        }
    }
}

@Suite("limen token across processes")
struct CrossProcessRefreshTests {
    /// Signs the default profile in with `limen login --no-browser`, answering the authorization request itself.
    func logIn(_ provider: CountingProvider, _ cli: CLIRunner) async throws {
        let login = try await cli.withLaunched([
            "login", "--issuer", provider.server.baseURL.absoluteString, "--client-id", CountingProvider.clientID,
            "--no-browser",
        ]) { running in
            let line = try await running.firstLine { $0.hasPrefix(provider.server.baseURL.absoluteString) }
            let url = try #require(URLComponents(string: line), "no authorization URL")
            let query = Dictionary(
                (url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            provider.expect(nonce: try #require(query["nonce"]))
            var callback = try #require(query["redirect_uri"].flatMap { URLComponents(string: $0) })
            callback.queryItems = [
                URLQueryItem(name: "code", value: CountingProvider.code),
                URLQueryItem(name: "state", value: query["state"]),
            ]
            _ = try await URLSessionTransport().send(HTTPRequest(url: try #require(callback.url)))
            return try await running.wait()
        }
        try #require(login.status == 0, "login failed: \(login.standardError)")
        #expect(login.trimmedOutput == "alice")
    }

    @Test("two token processes that both need a refresh over one profile refresh once and print the same token")
    func oneRefreshForTwoProcesses() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await CountingProvider.with { provider in
            try await logIn(provider, cli)
            #expect(provider.refreshCount == 0)

            // The test holds the profile's lock while both processes start, and lets go only once both have read
            // the stored session and wait for the lock: so both decided to refresh (--min-ttl exceeds the
            // 600-second lifetime), and only the lock can keep the second from refreshing again.
            let lock = FileLock(path: cli.configDirectory.appendingPathComponent("default.lock").path)
            let arguments = ["token", "--min-ttl", "3600"]
            let environment = ["LIMEN_LOG_LEVEL": "debug"]
            let (held, release) = (Gate(), Gate())
            let holder = Task {
                do {
                    try await lock.withLock {
                        await held.open()
                        await release.wait()
                    }
                } catch {
                    await held.open()
                    throw error
                }
            }
            await held.wait()
            let outputs = try await withStopping(holder, stop: { _ in await release.open() }) { holder in
                try await cli.withLaunched(arguments, environment: environment) { first in
                    try await cli.withLaunched(arguments, environment: environment) { second in
                        for process in [first, second] {
                            _ = try await process.firstLine { $0.contains("lock held by another process") }
                        }
                        await release.open()
                        try await holder.value
                        var outputs: [String] = []
                        for process in [first, second] {
                            let result = try await process.wait()
                            #expect(result.status == 0, "\(result.standardError)")
                            outputs.append(result.trimmedOutput)
                        }
                        return outputs
                    }
                }
            }
            #expect(provider.refreshCount == 1)
            #expect(outputs == ["refreshed-access-token-1", "refreshed-access-token-1"])
        }
    }
}
