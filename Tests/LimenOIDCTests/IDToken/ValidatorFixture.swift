import Foundation
import LimenOIDC
import LimenTestSupport
import TestSupport

/// A validator wired to a recording transport serving a JWKS, at a fixed time.
struct ValidatorFixture {
    static let issuer = "https://id.example.com"
    static let clientID = "limen-app"
    static let jwksURL = URL(string: "https://id.example.com/jwks")!
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    let transport = RecordingTransport()
    let time = TestNow(ValidatorFixture.start)
    let validator: IDTokenValidator

    /// A fixture whose JWKS holds `jwks`.
    init(jwks: [[String: JSONValue]], policy: IDTokenValidationPolicy = IDTokenValidationPolicy()) async {
        await transport.respond(to: Self.jwksURL, json: TestSigningKey.jwksJSON(jwks))
        let cache = JWKSCache(jwksURI: Self.jwksURL, transport: transport, now: { [time] in time.now })
        validator = IDTokenValidator(
            issuer: Self.issuer,
            clientID: Self.clientID,
            keys: cache,
            policy: policy,
            now: { [time] in time.now }
        )
    }

    /// A fixture whose JWKS holds these keys.
    init(keys: [TestSigningKey]) async {
        await self.init(jwks: keys.map(\.publicJWK))
    }

    /// How many times the JWKS was fetched.
    var jwksRequests: Int {
        get async { await transport.requestCount(for: Self.jwksURL) }
    }

    /// Valid ID token claims at ``start``, with `changes` applied (`.null` removes a claim).
    static func claims(_ changes: [String: JSONValue] = [:]) -> [String: JSONValue] {
        let now = start.timeIntervalSince1970
        var claims: [String: JSONValue] = [
            "iss": .string(issuer),
            "sub": "alice",
            "aud": .string(clientID),
            "exp": .number(now + 300),
            "iat": .number(now - 10),
            "nonce": "n-0S6_WzA2Mj",
        ]
        for (name, value) in changes {
            claims[name] = value == .null ? nil : value
        }
        return claims
    }
}
