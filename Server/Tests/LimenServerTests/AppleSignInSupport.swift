import Foundation
import HTTPTypes
import LimenServerWire
import LimenTestSupport
import LimenWire

@testable import LimenServer
@testable import LimenServerCore

/// Sign in with Apple against a ``StandInIssuer`` playing Apple (its base URL is the stand-in's, its keys at
/// `/auth/keys`): a ``TokenFixture`` with the `apple` setting for ``bundleID``.
struct AppleFixture: Sendable {
    /// The app's bundle ID: the audience of the identity tokens.
    static let bundleID = "com.example.app"
    /// The raw nonce the app generated, unless a test says otherwise.
    static let rawNonce = "raw-nonce-0123456789"

    let tokens: TokenFixture
    let apple: StandInIssuer

    /// The provider's current time.
    var now: Date { tokens.clock.now }

    /// Runs `body` with a stand-in Apple and a provider trusting it, over `backend`, adjusted by `configure`; with
    /// `teamKey`, the `apple` setting has a team key the stand-in trusts (``StandInAppleTeam``).
    static func run(
        on backend: TokenBackend = .sqlite,
        teamKey: Bool = false,
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (AppleFixture) async throws -> Void
    ) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await StandInIssuer.with(now: ExchangeFixture.start) { apple in
            let key = teamKey ? try apple.appleTeam.makeTeamKey(in: directory.path) : nil
            let setUp: (inout ServerConfiguration) -> Void = {
                $0.apple = AppleSignIn(bundleIDs: [bundleID], baseURL: apple.issuer, teamKey: key)
                configure(&$0)
            }
            try await TokenFixture.run(on: backend, configure: setUp) { tokens in
                try await body(AppleFixture(tokens: tokens, apple: apple))
            }
        }
    }

    /// An identity token as Apple makes it for the app: for `subject`, audience the bundle ID, the SHA-256 (hex) of
    /// `rawNonce`, with `extra` claims (which replace those), signed RS256 unless told otherwise.
    func identityToken(
        subject: String = "001234.abcdef",
        rawNonce: String = rawNonce,
        extra: [String: JSONValue] = [:],
        algorithm: SigningAlgorithm = .rs256
    ) async throws -> String {
        var claims: [String: JSONValue] = [
            "aud": .string(Self.bundleID), "nonce": .string(AppleIdentityVerifier.hashedNonce(rawNonce)),
            "auth_time": .number(now.timeIntervalSince1970.rounded(.down)), "nonce_supported": .bool(true),
        ]
        claims.merge(extra) { _, given in given }
        return try await apple.token(
            apple.claims(subject: subject, now: now, extra: claims), algorithm: algorithm, at: now)
    }

    /// `POST /auth/apple/native` with the members AppleSignInKit sends (`authorizationCode` one the stand-in does not
    /// know unless told).
    func signIn(
        _ identityToken: String,
        rawNonce: String = rawNonce,
        fullName: String? = nil,
        email: String? = nil,
        authorizationCode: String = "c0de.from.apple"
    ) async throws -> RecordedResponse {
        var body: [String: JSONValue] = [
            "identityToken": .string(identityToken), "nonce": .string(rawNonce),
            "authorizationCode": .string(authorizationCode),
        ]
        if let fullName { body["fullName"] = .string(fullName) }
        if let email { body["email"] = .string(email) }
        return try await postJSON(
            AppleSignInKitRoutes.nativePath, String(decoding: JSONValue.object(body).serialized(), as: UTF8.self))
    }

    /// A server-to-server notification as Apple signs it: `events` (a string of JSON) of `type` for `subject`, issued
    /// `age` seconds ago, with `extra` claims (which replace those), signed by `signer` (the stand-in Apple by default).
    func notification(
        _ type: String,
        subject: String = "001234.abcdef",
        age: TimeInterval = 0,
        extra: [String: JSONValue] = [:],
        signer: StandInIssuer? = nil
    ) async throws -> String {
        let events: JSONValue = .object([
            "type": .string(type), "sub": .string(subject),
            "event_time": .number(now.timeIntervalSince1970.rounded(.down) * 1000),
        ])
        var claims: [String: JSONValue] = [
            "iss": .string(apple.issuer), "aud": .string(Self.bundleID), "jti": .string(UUID().uuidString),
            "iat": .number(now.addingTimeInterval(-age).timeIntervalSince1970.rounded(.down)),
            "events": .string(String(decoding: events.serialized(), as: UTF8.self)),
        ]
        claims.merge(extra) { _, given in given }
        return try await (signer ?? apple).token(claims, algorithm: .rs256, at: now)
    }

    /// `POST /auth/apple/notifications` with `payload`, as Apple posts it.
    func notify(_ payload: String) async throws -> RecordedResponse {
        let body = JSONValue.object(["payload": .string(payload)]).serialized()
        return try await postJSON(AppleSignInKitRoutes.notificationsPath, String(decoding: body, as: UTF8.self))
    }

    /// `POST /auth/refresh` with `refreshToken`.
    func refresh(_ refreshToken: String) async throws -> RecordedResponse {
        try await postJSON(
            "/auth/refresh",
            String(decoding: JSONValue.object(["refreshToken": .string(refreshToken)]).serialized(), as: UTF8.self))
    }

    /// `POST path` with a JSON `body` (or another `contentType`).
    func postJSON(_ path: String, _ body: String, contentType: String = "application/json", bearer: String? = nil)
        async throws -> RecordedResponse
    {
        var headers: HTTPFields = [.contentType: contentType]
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        return try await tokens.post(path, [], headers: headers, body: body)
    }

    /// `GET /auth/me` with a bearer token.
    func me(_ accessToken: String?) async throws -> RecordedResponse {
        try await tokens.get("/auth/me", headers: accessToken.map { [.authorization: "Bearer \($0)"] } ?? [:])
    }

    /// `POST /auth/logout` with a bearer token and no body.
    func logout(_ accessToken: String) async throws -> RecordedResponse {
        try await tokens.post("/auth/logout", [], headers: [.authorization: "Bearer \(accessToken)"], body: "")
    }
}

extension RecordedResponse {
    /// The `user` object of an AppleSignInKit answer.
    var user: [String: JSONValue] { json["user"]?.objectValue ?? [:] }
}
