import Crypto
import Foundation
import LimenOIDC
import LimenServerWire
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore
@testable import LimenServerStorage

@Suite("Verified signatures: an access token's signature is checked once, its key and claims on every request")
struct VerifiedSignatureCacheTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a token is remembered until it expires, and only byte for byte")
    func remembersUntilExpiry() {
        let cache = VerifiedSignatureCache()
        cache.insert("a.b.c", expiresAt: now.addingTimeInterval(60), now: now)
        #expect(cache.contains("a.b.c", at: now.addingTimeInterval(59)))
        #expect(!cache.contains("a.b.d", at: now))
        #expect(!cache.contains("a.b.c", at: now.addingTimeInterval(60)))
    }

    @Test("a full cache drops expired tokens first, and starts over when none has expired")
    func staysBounded() {
        let cache = VerifiedSignatureCache(capacity: 3)
        cache.insert("expired", expiresAt: now.addingTimeInterval(1), now: now)
        cache.insert("t1", expiresAt: now.addingTimeInterval(600), now: now)
        cache.insert("t2", expiresAt: now.addingTimeInterval(600), now: now)
        let later = now.addingTimeInterval(10)
        cache.insert("t3", expiresAt: later.addingTimeInterval(600), now: later)
        #expect(cache.count == 3)
        #expect(cache.contains("t1", at: later) && cache.contains("t2", at: later) && cache.contains("t3", at: later))

        cache.insert("t4", expiresAt: later.addingTimeInterval(600), now: later)
        #expect(cache.count == 1)
        #expect(cache.contains("t4", at: later))
        #expect(!cache.contains("t1", at: later))
    }

    @Test("a token is verified once; the same token with another signature is still refused")
    func tamperedCopyIsRefused() async throws {
        try await withSignedInVerifier { fixture, cache, verifier, token in
            #expect(verifier.signedClaims(token, now: fixture.clock.now)?.subject == TokenFixture.user.id)
            #expect(cache.contains(token, at: fixture.clock.now))

            #expect(verifier.signedClaims(Self.withAnotherSignature(token), now: fixture.clock.now) == nil)
            #expect(cache.count == 1)
            #expect(verifier.signedClaims(token, now: fixture.clock.now) != nil)
        }
    }

    @Test("a remembered token is refused once its key is no longer published, and once it expires")
    func keyAndExpiryAreCheckedEveryTime() async throws {
        try await withSignedInVerifier { fixture, cache, verifier, token in
            let claims = try #require(verifier.signedClaims(token, now: fixture.clock.now))
            #expect(cache.contains(token, at: fixture.clock.now))

            #expect(verifier.signedClaims(token, now: claims.expiresAt) == nil)

            let ring = fixture.provider.keys
            fixture.provider.keyRing.replace(with: KeyRing(keys: ring.keys.filter { $0.algorithm != .es256 }))
            #expect(verifier.signedClaims(token, now: fixture.clock.now) == nil)
            fixture.provider.keyRing.replace(with: ring)
            #expect(verifier.signedClaims(token, now: fixture.clock.now) != nil)
        }
    }

    @Test("a token without kid is verified every time, never remembered")
    func tokenWithoutKeyIDIsNotRemembered() async throws {
        try await withSignedInVerifier { fixture, cache, verifier, issued in
            let key = try #require(fixture.provider.keys.signingKey(for: .es256, at: fixture.clock.now))
            guard case .es256(let privateKey) = key.material else {
                Issue.record("the ES256 signing key is not P-256")
                return
            }
            let header = Base64URL.encode(Data(#"{"alg":"ES256","typ":"at+jwt"}"#.utf8))
            let payload = issued.split(separator: ".")[1]
            let signingInput = "\(header).\(payload)"
            let signature = try privateKey.signature(for: Data(signingInput.utf8)).rawRepresentation
            let token = signingInput + "." + Base64URL.encode(signature)

            #expect(verifier.signedClaims(token, now: fixture.clock.now) != nil)
            #expect(cache.count == 0)
        }
    }

    /// Runs `body` with a fixture, an empty cache, a verifier using it, and an access token just issued.
    private func withSignedInVerifier(
        _ body:
            @escaping @Sendable (TokenFixture, VerifiedSignatureCache, AccessTokenVerifier, String) async throws
            -> Void
    ) async throws {
        try await TokenFixture.run { fixture in
            let cache = VerifiedSignatureCache()
            let provider = fixture.provider
            let verifier = AccessTokenVerifier(
                keys: provider.keyRing, issuer: provider.issuer, store: provider.store, now: provider.now,
                signatures: cache)
            let token = try #require(try await fixture.signIn()["access_token"])
            try await body(fixture, cache, verifier, token)
        }
    }

    /// `token` with the first character of its signature changed: the same header and claims, another signature.
    private static func withAnotherSignature(_ token: String) -> String {
        var parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let first = parts[2].removeFirst()
        parts[2] = (first == "A" ? "B" : "A") + parts[2]
        return parts.joined(separator: ".")
    }
}
