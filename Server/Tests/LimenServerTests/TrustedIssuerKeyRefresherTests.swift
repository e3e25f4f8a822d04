import Foundation
import LimenOIDC
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// The trusted issuers' key sets are fetched in the background (``TrustedIssuerKeyRefresher``): at start and before
/// they expire, so that a token exchange does not wait on the issuer.
@Suite("Trusted issuer keys: refreshed ahead by a service")
struct TrustedIssuerKeyRefresherTests {
    @Test("the first look fetches the key set; tokens then verify without a request until the set nears its expiry")
    func refreshesAhead() async throws {
        let start = Date()
        try await StandInIssuer.with(now: start) { standIn in
            let clock = Locked(start)
            let keys = TrustedIssuerBackoffTests.FlakyKeys(jwks: standIn.keys.jwks(at: start))
            keys.setUp(true)
            let verifier = ExternalTokenVerifier(
                issuers: [standIn.trusted(byDiscovery: false)], transport: keys, now: { clock.withLock { $0 } })
            let refresher = TrustedIssuerKeyRefresher(verifiers: [verifier], interval: .seconds(300))
            func verify() async throws {
                let now = clock.withLock { $0 }
                _ = try await verifier.verify(
                    try await standIn.token(standIn.claims(now: now), at: now),
                    type: TokenExchangeRequest.TokenType.idToken)
            }

            await refresher.refreshOnce()
            #expect(keys.requests == 1, "fetched before any token came")
            try await verify()
            #expect(keys.requests == 1, "the token verified with the keys fetched ahead")

            clock.withLock { $0 = $0.addingTimeInterval(2999) }
            await refresher.refreshOnce()
            #expect(keys.requests == 1, "more than two looks (600 s) before expiry: kept")
            clock.withLock { $0 = $0.addingTimeInterval(1) }
            await refresher.refreshOnce()
            #expect(keys.requests == 2, "expiring within two looks: fetched again")
            clock.withLock { $0 = $0.addingTimeInterval(3599) }
            try await verify()
            #expect(keys.requests == 2, "still fresh for requests")
        }
    }

    @Test("a look that cannot reach the issuer counts towards its back-off, as a request's fetch does")
    func failureBacksOff() async throws {
        let start = Date()
        try await StandInIssuer.with(now: start) { standIn in
            let clock = Locked(start)
            let keys = TrustedIssuerBackoffTests.FlakyKeys(jwks: standIn.keys.jwks(at: start))
            let verifier = ExternalTokenVerifier(
                issuers: [standIn.trusted(byDiscovery: false)], transport: keys, now: { clock.withLock { $0 } })
            let refresher = TrustedIssuerKeyRefresher(verifiers: [verifier])

            await refresher.refreshOnce()
            #expect(keys.requests == 1)
            keys.setUp(true)
            let token = try await standIn.token(standIn.claims(now: start), at: start)
            await #expect(throws: ExternalTokenRefusal.keysUnavailable(issuer: standIn.issuer)) {
                _ = try await verifier.verify(token, type: TokenExchangeRequest.TokenType.idToken)
            }
            #expect(keys.requests == 1, "refused while the back-off lasts, without calling the issuer")
            clock.withLock { $0 = $0.addingTimeInterval(1) }
            await refresher.refreshOnce()
            #expect(keys.requests == 2)
            _ = try await verifier.verify(token, type: TokenExchangeRequest.TokenType.idToken)
            #expect(keys.requests == 2, "the next look's keys serve the request")
        }
    }
}
