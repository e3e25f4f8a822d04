import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenServerWire
import LimenTestSupport
import Logging
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

/// Where a token fixture keeps its data: SQLite always, PostgreSQL when it is configured (always in CI).
enum TokenBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    static var allCases: [TokenBackend] {
        [.sqlite] + (PostgresTestDatabase.unavailableReason == nil ? [.postgres] : [])
    }

    var testDescription: String { rawValue }
}

/// A response read whole, with its JSON members when it has a JSON object body.
struct RecordedResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: Data

    /// The body's members; empty when it is not a JSON object.
    var json: [String: JSONValue] {
        (try? JSONDecoder().decode([String: JSONValue].self, from: body)) ?? [:]
    }

    /// The `error` member of an error body.
    var error: String? { json["error"]?.stringValue }

    /// A string member.
    subscript(_ name: String) -> String? { json[name]?.stringValue }
}

/// A provider on a test clock, served through HummingbirdTesting's router client, with a user and three clients:
/// `native` (public, PKCE), `web` (confidential, RS256 ID tokens) and `backend` (confidential, no refresh tokens).
struct TokenFixture: Sendable {
    static let nativeRedirect = "http://127.0.0.1/callback"
    static let webRedirect = "https://app.example/cb"
    /// Has characters that RFC 6749 §2.3.1 form-encodes before Basic.
    static let webSecret = "s3cret: with+plus&amp"
    static let backendSecret = "backend-secret"
    static let user = UserRecord(
        id: "user-1", email: "ada@example.com", emailVerified: true, name: "Ada",
        createdAt: Date(timeIntervalSince1970: 0))

    let provider: ServerComposition
    let clock: TestNow
    let client: any TestClientProtocol
    /// Headers every ``post(_:_:headers:body:)`` and ``get(_:headers:)`` sends too (a `User-Agent`, say).
    var headers: HTTPFields = [:]

    /// Runs `body` against a fresh provider whose data is kept by `backend`, configured by `configure`, its requests
    /// logging through `logger` when given, served by `setup` (`.live`: over a socket, so requests have a peer).
    static func run(
        on backend: TokenBackend = .sqlite,
        setup: TestingSetup = .router,
        logger: Logger? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TokenFixture) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory)
        var dropDatabase: (@Sendable () async -> Void)?
        if backend == .postgres {
            let (_, url, drop) = try await PostgresTestDatabase.make()
            configuration.usePostgres(url: url)
            dropDatabase = drop
        }
        configure(&configuration)
        let clock = TestNow()
        let provider = try await ServerComposition.bootstrap(configuration: configuration, now: { clock.now })
        let store = provider.store
        let now = clock.now
        try await store.insertUserIfAbsent(user)
        try await store.insertClientIfAbsent(
            ClientRecord(
                id: "native", name: "Native", kind: .public, isNative: true, redirectURIs: [nativeRedirect],
                createdAt: now))
        try await store.insertClientIfAbsent(
            ClientRecord(
                id: "web", name: "Web", kind: .confidential, secretHash: ClientSecret.hash(webSecret),
                redirectURIs: [webRedirect], idTokenSignedResponseAlg: .rs256, createdAt: now))
        try await store.insertClientIfAbsent(
            ClientRecord(
                id: "backend", name: "Backend", kind: .confidential, secretHash: ClientSecret.hash(backendSecret),
                redirectURIs: [webRedirect], grantTypes: [.authorizationCode], createdAt: now))
        let app = Application(router: LimenServerApplication.router(composition: provider), logger: logger)
        do {
            try await app.test(setup) { client in
                try await body(TokenFixture(provider: provider, clock: clock, client: client))
            }
        } catch {
            await store.close()
            await dropDatabase?()
            throw error
        }
        await store.close()
        await dropDatabase?()
    }

    /// Stores an authorization code as `/authorize` would (SHA-256 of 256 random bits, 60 s) and returns it.
    @discardableResult
    func issueCode(
        clientID: String = "native",
        redirectURI: String = nativeRedirect,
        scope: String = "openid email profile offline_access",
        nonce: String? = "n-1",
        challenge: String? = PKCE.fixture.challenge
    ) async throws -> String {
        let code = RandomToken.make(byteCount: 32)
        try await provider.store.insertAuthorizationCode(
            AuthorizationCodeRecord(
                codeHash: RandomIdentifier.hash(code), clientID: clientID, redirectURI: redirectURI,
                subject: Self.user.id, scope: scope, nonce: nonce, codeChallenge: challenge,
                authTime: clock.now.addingTimeInterval(-30), expiresAt: clock.now.addingTimeInterval(60)
            )
        )
        return code
    }

    /// `POST path` with a form body (or `body` as given) and headers.
    func post(
        _ path: String,
        _ fields: [(String, String)],
        headers: HTTPFields = [:],
        body: String? = nil
    ) async throws -> RecordedResponse {
        var headers = self.headers.merging(headers)
        if headers[.contentType] == nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        return try await client.execute(
            uri: path, method: .post, headers: headers,
            body: ByteBuffer(string: body ?? FormEncoding.encode(fields))
        ) { response in
            RecordedResponse(
                status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }

    /// `GET path` with headers.
    func get(_ path: String, headers: HTTPFields = [:]) async throws -> RecordedResponse {
        try await client.execute(uri: path, method: .get, headers: self.headers.merging(headers)) { response in
            RecordedResponse(
                status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }

    /// The native client's code exchange, with the fixture's verifier unless told otherwise.
    func redeem(_ code: String, verifier: String? = PKCE.fixture.verifier, clientID: String = "native") async throws
        -> RecordedResponse
    {
        try await post(
            "/token",
            FormEncoding.present([
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.nativeRedirect),
                ("client_id", clientID), ("code_verifier", verifier),
            ]))
    }

    /// A refresh by the native client.
    func refresh(_ refreshToken: String, scope: String? = nil, clientID: String = "native") async throws
        -> RecordedResponse
    {
        try await post(
            "/token",
            FormEncoding.present([
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID),
                ("scope", scope),
            ]))
    }

    /// Signed-in tokens of the native client: a fresh code redeemed.
    func signIn(scope: String = "openid email profile offline_access") async throws -> RecordedResponse {
        try await redeem(try await issueCode(scope: scope))
    }

    /// `GET /userinfo` with a bearer token.
    func userInfo(_ accessToken: String) async throws -> RecordedResponse {
        try await get("/userinfo", headers: [.authorization: "Bearer \(accessToken)"])
    }

    /// An HTTP Basic header (RFC 6749 §2.3.1: id and secret form-url-encoded first).
    static func basic(_ id: String, _ secret: String) -> HTTPFields {
        let credentials = FormEncoding.escape(id) + ":" + FormEncoding.escape(secret)
        return [.authorization: "Basic " + Data(credentials.utf8).base64EncodedString()]
    }

    /// An ID token validator for `clientID` that fetches the provider's JWKS from its own `/jwks` route.
    func idTokenValidator(clientID: String) -> IDTokenValidator {
        let issuer = provider.issuer.current
        let jwks = JWKSCache(
            jwksURI: URL(string: issuer + "/jwks") ?? URL(fileURLWithPath: "/jwks"),
            transport: RouterTransport(client: client),
            now: { [clock] in clock.now }
        )
        return IDTokenValidator(issuer: issuer, clientID: clientID, keys: jwks, now: { [clock] in clock.now })
    }
}

extension GrantStore {
    /// The code with this hash, redeemed by `clientID` (for a throw-away grant) as `/token` would; `nil` when it was
    /// not usable.
    func redeemedCode(hash: Data, now: Date, clientID: String = "limen-cli") async throws -> AuthorizationCodeRecord? {
        let redemption = try await redeemAuthorizationCode(
            hash: hash, clientID: clientID, grantID: RandomIdentifier.make(), now: now)
        guard case .redeemed(let record) = redemption else { return nil }
        return record
    }
}

extension PKCE {
    /// RFC 7636 Appendix B's verifier (its challenge is `E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM`).
    static let fixture = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")!
}

/// An SDK transport that sends requests to the router under test (the provider's own routes, in process).
struct RouterTransport: HTTPTransport {
    let client: any TestClientProtocol

    func send(_ request: LimenOIDC.HTTPRequest) async throws(NetworkError) -> LimenOIDC.HTTPResponse {
        do {
            let path = request.url.path + (request.url.query.map { "?" + $0 } ?? "")
            return try await client.execute(uri: path, method: .get) { response in
                var headers: [String: String] = [:]
                for field in response.headers { headers[field.name.canonicalName] = field.value }
                return LimenOIDC.HTTPResponse(
                    status: Int(response.status.code), headers: headers, body: Data(response.body.readableBytesView))
            }
        } catch {
            throw NetworkError.connectionLost("\(error)")
        }
    }
}

extension HTTPFields {
    /// These fields with `other`'s, `other`'s fields replacing these for a name both have; a name `other` repeats (two
    /// `DPoP` proofs, say) stays repeated.
    func merging(_ other: HTTPFields) -> HTTPFields {
        var merged = self
        for name in Set(other.map(\.name)) { merged[name] = nil }
        merged.append(contentsOf: other)
        return merged
    }
}
