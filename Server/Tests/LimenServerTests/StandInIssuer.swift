import Foundation
import Hummingbird
import LimenServerWire
import LimenTestSupport
import LimenWire
import Logging
import NIOCore
import ServiceLifecycle
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Another OpenID provider, for token exchange and for playing Apple: a Hummingbird server on 127.0.0.1 (port 0)
/// publishing an ES256 and an RS256 key at `/jwks` (and at `/auth/keys`, as Apple does) and its discovery document,
/// counting the key-set fetches, and minting tokens with its keys; and an upstream provider of the hosted pages with
/// its `/authorize` and `/token` (``upstream``).
struct StandInIssuer: Sendable {
    /// The audience its tokens are for by default (the app's client ID at this issuer).
    static let audience = "limen-app"

    /// Its issuer identifier, `http://127.0.0.1:<port>`.
    let issuer: String
    /// The keys it publishes and signs with.
    let keys: KeyRing
    private let signer: TokenSigner
    private let fetches: Locked<Int>
    /// Its authorization and token endpoints' behaviour.
    let upstream: StandInUpstream
    /// Apple's REST API for a team key (`/auth/token`, `/auth/revoke`), when it plays Apple.
    let appleTeam: StandInAppleTeam

    /// How many times `/jwks` was fetched.
    var jwksFetches: Int { fetches.withLock { $0 } }

    /// Its `trusted_issuers` entry: the issuer and audience, keys by discovery unless `jwksURL` is set.
    func trusted(
        algorithms: [JWSAlgorithm] = TrustedIssuer.defaultAlgorithms,
        maxTokenAge: TimeInterval? = nil,
        linkByVerifiedEmail: Bool = false,
        byDiscovery: Bool = true
    ) -> TrustedIssuer {
        TrustedIssuer(
            issuer: issuer, jwksURL: byDiscovery ? nil : URL(string: issuer + "/jwks"), audiences: [Self.audience],
            algorithms: algorithms, maxTokenAge: maxTokenAge, linkByVerifiedEmail: linkByVerifiedEmail)
    }

    /// Runs `body` with an issuer serving until it returns or throws.
    static func with(now: Date, _ body: (StandInIssuer) async throws -> Void) async throws {
        let keys = KeyRing(keys: [
            try SigningKey.generate(algorithm: .es256, now: now.addingTimeInterval(-3600)),
            try SigningKey.generate(algorithm: .rs256, now: now.addingTimeInterval(-3600)),
        ])
        let signer = try await TokenSigner(keys: keys)
        let fetches = Locked(0)
        let issuerBox = Locked("")
        let router = Router()
        let upstream = StandInUpstream()
        upstream.add(to: router, issuer: { issuerBox.withLock { $0 } }, signer: signer, now: now)
        let appleTeam = StandInAppleTeam()
        appleTeam.add(to: router, issuer: { issuerBox.withLock { $0 } })
        let jwks: @Sendable (Request, BasicRequestContext) -> Response = { _, _ in
            fetches.withLock { $0 += 1 }
            return Responses.json(.object(keys.jwks(at: now)))
        }
        router.get("/jwks", use: jwks)
        router.get("/auth/keys", use: jwks)  // where Apple publishes its keys, for playing Apple
        router.get("/.well-known/openid-configuration") { _, _ in
            let issuer = issuerBox.withLock { $0 }
            return Responses.json(
                .object([
                    "issuer": .string(issuer), "jwks_uri": .string(issuer + "/jwks"),
                    "authorization_endpoint": .string(issuer + "/authorize"),
                    "token_endpoint": .string(issuer + "/token"),
                    "authorization_response_iss_parameter_supported": .bool(true),
                    "response_types_supported": .array([.string("code")]),
                    "subject_types_supported": .array([.string("public")]),
                    "id_token_signing_alg_values_supported": .array([.string("ES256"), .string("RS256")]),
                ]))
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: Logger(label: "test.stand-in-issuer")
        )
        try await withRunningService(
            [app], announcing: ports, ending: continuation, "the stand-in issuer did not start"
        ) { port in
            let issuer = "http://127.0.0.1:\(port)"
            issuerBox.withLock { $0 = issuer }
            try await body(
                StandInIssuer(
                    issuer: issuer, keys: keys, signer: signer, fetches: fetches, upstream: upstream,
                    appleTeam: appleTeam))
        }
    }

    /// The claims of a fresh ID token for `subject`, issued at `now`, valid for five minutes.
    func claims(subject: String = "ext-user-1", now: Date, extra: [String: JSONValue] = [:]) -> [String: JSONValue] {
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(subject), "aud": .string(Self.audience),
            "iat": .number(now.timeIntervalSince1970.rounded(.down)),
            "exp": .number(now.addingTimeInterval(300).timeIntervalSince1970.rounded(.down)),
        ]
        claims.merge(extra) { _, given in given }
        return claims
    }

    /// A token over `claims` signed with its `algorithm` key.
    func token(_ claims: [String: JSONValue], algorithm: SigningAlgorithm = .es256, at now: Date) async throws -> String
    {
        try await signer.sign(claims, algorithm: algorithm, at: now)
    }
}
