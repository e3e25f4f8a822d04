import Foundation
import LimenWire
import TestSupport
import Testing

@Suite("Unverified JWT decoding")
struct UnverifiedJWTTests {
    let issuedAt = Date(timeIntervalSince1970: 1_700_000_000)

    func token(_ claims: [String: JSONValue], header: [String: JSONValue] = ["alg": "RS256", "kid": "k1"]) -> String {
        TestJWT.signingInput(header: header, claims: claims) + ".c2lnbmF0dXJl"
    }

    @Test("header and standard claims are read without verification")
    func decodesClaims() throws {
        let jwt = try UnverifiedJWT(
            token([
                "iss": "https://id.example.com", "sub": "alice", "aud": "app", "jti": "j1",
                "exp": 1_700_000_300, "iat": 1_700_000_000, "nbf": 1_700_000_000, "scope": "openid",
            ])
        )
        #expect(jwt.algorithm == "RS256")
        #expect(jwt.keyID == "k1")
        #expect(jwt.issuer == "https://id.example.com")
        #expect(jwt.subject == "alice")
        #expect(jwt.audience == ["app"])
        #expect(jwt.jwtID == "j1")
        #expect(jwt.expiresAt == issuedAt.addingTimeInterval(300))
        #expect(jwt.issuedAt == issuedAt)
        #expect(jwt.notBefore == issuedAt)
        #expect(jwt[claim: "scope"] == .string("openid"))
        #expect(jwt.timeUntilExpiration(now: issuedAt) == 300)
    }

    @Test("an audience array is read as is")
    func audienceArray() throws {
        #expect(try UnverifiedJWT(token(["aud": ["a", "b"]])).audience == ["a", "b"])
    }

    @Test(
        "expiry is judged with the leeway",
        arguments: [(299.0, false), (300.0, true), (329.0, false), (330.0, true)]
    )
    func isExpired(_ elapsed: TimeInterval, expected: Bool) throws {
        let jwt = try UnverifiedJWT(token(["exp": 1_700_000_300]))
        let leeway: TimeInterval = elapsed >= 329 ? 30 : 0
        #expect(jwt.isExpired(leeway: leeway, now: issuedAt.addingTimeInterval(elapsed)) == expected)
    }

    @Test("a token without exp never counts as expired")
    func noExpiry() throws {
        let jwt = try UnverifiedJWT(token(["sub": "alice"]))
        #expect(!jwt.isExpired(now: .distantFuture))
        #expect(jwt.timeUntilExpiration(now: issuedAt) == nil)
    }

    @Test(
        "malformed input is refused with a typed error",
        arguments: [
            ("a.b", JWTDecodingError.segmentCount(2)),
            ("a.b.c.d", .segmentCount(4)),
            ("", .segmentCount(1)),
            ("ey!.e30.", .invalidBase64URL(.header)),
            ("e30.e30=.", .invalidBase64URL(.payload)),
            ("e30.e30.a+b", .invalidBase64URL(.signature)),
            ("bm90IGpzb24.e30.", .invalidJSON(.header)),
            ("e30.bm90IGpzb24.", .invalidJSON(.payload)),
            ("e30.WzFd.", .invalidJSON(.payload)),
        ]
    )
    func malformed(_ input: String, expected: JWTDecodingError) {
        #expect(throws: expected) { try UnverifiedJWT(input) }
    }
}
