import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite(
    "Two-step sign-in under the bearer API: its state, new recovery codes and turning it off, each after a fresh code")
struct SecondFactorRoutesTests {
    /// `method` on `path` with Grace's `bearer` and a form body with `code` (when given).
    private static func send(
        _ method: HTTPRequest.Method, _ path: String, bearer: String, code: String?, in fixture: TokenFixture
    ) async throws -> RecordedResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(bearer)"]
        let body = code.map { FormEncoding.encode([("code", $0)]) }
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        return try await fixture.send(method, path, headers: headers, body: body)
    }

    @Test("the state says whether it is on and how many recovery codes are left; new codes need a fresh code")
    func stateAndNewCodes() async throws {
        try await FlowFixture.run { fixture in
            let bearer = try await fixture.graceAccessToken()
            let off = try await Self.send(.get, "/v1/me/totp", bearer: bearer, code: nil, in: fixture)
            #expect(off.json == ["enabled": .bool(false)])
            let none = try await Self.send(.post, "/v1/me/recovery-codes", bearer: bearer, code: "123456", in: fixture)
            #expect(none.status == .notFound)
            #expect(none.error == "not_enabled")

            let setup = try await fixture.enableTwoStep()
            let on = try await Self.send(.get, "/v1/me/totp", bearer: bearer, code: nil, in: fixture)
            #expect(on.json["enabled"] == .bool(true))
            #expect(on.json["recovery_codes_left"] == .number(10))

            let missing = try await Self.send(.post, "/v1/me/recovery-codes", bearer: bearer, code: nil, in: fixture)
            #expect(missing.status == .badRequest)
            let wrong = try await Self.send(
                .post, "/v1/me/recovery-codes", bearer: bearer, code: "zzzzzz-zzzzzz", in: fixture)
            #expect(wrong.status == .forbidden)
            #expect(wrong.error == "invalid_code")

            let renewed = try await Self.send(
                .post, "/v1/me/recovery-codes", bearer: bearer, code: setup.recoveryCodes[0], in: fixture)
            #expect(renewed.status == .ok)
            guard case .array(let codes)? = renewed.json["recovery_codes"] else {
                Issue.record("no recovery_codes in \(renewed.json)")
                return
            }
            #expect(codes.count == 10)
            #expect(renewed.headers[.cacheControl] == "no-store")
            let old = try await Self.send(
                .post, "/v1/me/recovery-codes", bearer: bearer, code: setup.recoveryCodes[1], in: fixture)
            #expect(old.error == "invalid_code", "the old codes no longer work")
        }
    }

    @Test("turning it off takes a current code; then the password alone signs in again")
    func disable() async throws {
        try await FlowFixture.run { fixture in
            let bearer = try await fixture.graceAccessToken()
            let setup = try await fixture.enableTwoStep()
            let reused = try await Self.send(
                .delete, "/v1/me/totp", bearer: bearer, code: setup.totp.code(at: fixture.clock.now), in: fixture)
            #expect(reused.error == "invalid_code", "the setup's code was used")
            fixture.clock.advance(by: 30)
            let off = try await Self.send(
                .delete, "/v1/me/totp", bearer: bearer, code: setup.totp.code(at: fixture.clock.now), in: fixture)
            #expect(off.status == .noContent)
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(try await fixture.provider.store.secondFactor(userID: grace.id) == nil)
            #expect(try await fixture.signInThroughFlow().nodeType == "success")
        }
    }

    @Test("five wrong codes lock the changes for the address")
    func lockout() async throws {
        try await FlowFixture.run { fixture in
            let bearer = try await fixture.graceAccessToken()
            let setup = try await fixture.enableTwoStep()
            fixture.clock.advance(by: 30)
            let right = setup.totp.code(at: fixture.clock.now)
            let wrong = right == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                let refused = try await Self.send(.delete, "/v1/me/totp", bearer: bearer, code: wrong, in: fixture)
                #expect(refused.error == "invalid_code")
            }
            let locked = try await Self.send(.delete, "/v1/me/totp", bearer: bearer, code: right, in: fixture)
            #expect(locked.status == .tooManyRequests)
            #expect(locked.headers[.retryAfter] != nil)
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(try await fixture.provider.store.secondFactor(userID: grace.id) != nil)
        }
    }
}
