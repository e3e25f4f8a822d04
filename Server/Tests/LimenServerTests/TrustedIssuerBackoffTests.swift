import Foundation
import LimenOIDC
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A trusted issuer whose keys cannot be fetched is not called for every token naming it: after a failure the next
/// attempt waits 1 s, doubling with each failure in a row up to a minute, and the first success ends the wait.
@Suite("Trusted issuer keys: back-off after failures")
struct TrustedIssuerBackoffTests {
    /// Serves the stand-in's key set at its `/jwks` while up; answers 503 while down; counts the requests.
    final class FlakyKeys: HTTPTransport, @unchecked Sendable {
        private let state = Locked((isUp: false, requests: 0))
        private let body: Data

        init(jwks: [String: JSONValue]) {
            body = Data(JSONValue.object(jwks).serialized())
        }

        var requests: Int { state.withLock { $0.requests } }
        func setUp(_ isUp: Bool) { state.withLock { $0.isUp = isUp } }

        func send(_ request: LimenOIDC.HTTPRequest) async throws(NetworkError) -> LimenOIDC.HTTPResponse {
            let isUp = state.withLock { state in
                state.requests += 1
                return state.isUp
            }
            return isUp ? HTTPResponse(status: 200, body: body) : HTTPResponse(status: 503)
        }
    }

    @Test("failures in a row wait 1, 2, 4 s before the keys are fetched again; a success ends the wait")
    func backoff() async throws {
        let start = Date()
        try await StandInIssuer.with(now: start) { standIn in
            let clock = Locked(start)
            let keys = FlakyKeys(jwks: standIn.keys.jwks(at: start))
            let verifier = ExternalTokenVerifier(
                issuers: [standIn.trusted(byDiscovery: false)], transport: keys, now: { clock.withLock { $0 } })
            let token = try await standIn.token(standIn.claims(now: start), at: start)
            func verify() async -> ExternalTokenRefusal? {
                do {
                    _ = try await verifier.verify(token, type: TokenExchangeRequest.TokenType.idToken)
                    return nil
                } catch {
                    return error
                }
            }
            func advance(_ seconds: TimeInterval) { clock.withLock { $0 = $0.addingTimeInterval(seconds) } }
            let unavailable = ExternalTokenRefusal.keysUnavailable(issuer: standIn.issuer)

            #expect(await verify() == unavailable)
            #expect(await verify() == unavailable)
            #expect(keys.requests == 1, "refused at once while waiting, without calling the issuer")
            advance(1)
            #expect(await verify() == unavailable)
            #expect(keys.requests == 2)
            advance(1.5)
            #expect(await verify() == unavailable)
            #expect(keys.requests == 2, "the second failure waits 2 s")
            advance(0.5)
            #expect(await verify() == unavailable)
            #expect(keys.requests == 3)

            keys.setUp(true)
            advance(3.9)
            #expect(await verify() == unavailable)
            #expect(keys.requests == 3, "the third failure waits 4 s")
            advance(0.1)
            #expect(await verify() == nil)
            #expect(keys.requests == 4)
            #expect(await verify() == nil)
            #expect(keys.requests == 4, "the keys are cached once fetched")
        }
    }

    @Test("after a success, the next failure waits the shortest time again")
    func resetAfterSuccess() async throws {
        let start = Date()
        try await StandInIssuer.with(now: start) { standIn in
            let clock = Locked(start)
            let keys = FlakyKeys(jwks: standIn.keys.jwks(at: start))
            let issuerKeys = TrustedIssuerKeys(
                issuer: standIn.trusted(byDiscovery: false), transport: keys, now: { clock.withLock { $0 } })
            await issuerKeys.recordFailure()
            await issuerKeys.recordFailure()
            #expect(await issuerKeys.keys() == nil, "waiting 2 s after two failures")
            clock.withLock { $0 = $0.addingTimeInterval(2) }
            #expect(await issuerKeys.keys() != nil)
            await issuerKeys.recordSuccess()
            #expect(await !issuerKeys.isRecovering)
            await issuerKeys.recordFailure()
            clock.withLock { $0 = $0.addingTimeInterval(0.9) }
            #expect(await issuerKeys.keys() == nil)
            clock.withLock { $0 = $0.addingTimeInterval(0.1) }
            #expect(await issuerKeys.keys() != nil, "one failure after a success waits 1 s")
        }
    }
}
