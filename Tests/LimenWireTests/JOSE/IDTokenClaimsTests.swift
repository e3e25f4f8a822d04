import Foundation
import LimenWire
import TestSupport
import Testing

@Suite("ID token claims")
struct IDTokenClaimsTests {
    let claims: [String: JSONValue] = [
        "iss": "https://id.example.com", "sub": "alice", "aud": "app", "exp": 1_700_000_300, "iat": 1_700_000_000,
        "amr": ["pwd", "otp"], "email_verified": "true", "groups": ["admins"],
    ]

    @Test("standard claims are typed and custom claims stay reachable")
    func typedAndCustom() throws {
        let typed = try IDTokenClaims(claims: claims)
        #expect(typed.audience == ["app"])
        #expect(typed.authenticationMethods == ["pwd", "otp"])
        #expect(typed.emailVerified == true)
        #expect(typed["groups"] == .array(["admins"]))
        #expect(typed.all.count == claims.count)
    }

    @Test("claims survive a JSON round trip")
    func codableRoundTrip() throws {
        let typed = try IDTokenClaims(claims: claims)
        let decoded = try JSONDecoder().decode(IDTokenClaims.self, from: JSONEncoder().encode(typed))
        #expect(decoded == typed)
    }

    @Test("every validation error has its own stable code")
    func distinctCodes() {
        let errors: [IDTokenValidationError] = [
            .malformed(""), .algorithmNotAllowed(""), .keyNotFound(kid: nil), .ambiguousKey, .invalidSignature,
            .jwksUnavailable(.timeout), .jwksInvalid(""), .issuerMismatch(expected: "", actual: ""),
            .audienceMismatch, .authorizedPartyMismatch, .missingClaim(""), .invalidClaim(""), .expired,
            .issuedInFuture, .notYetValid, .nonceMismatch, .missingAuthTime, .authenticationTooOld,
            .accessTokenHashMismatch,
        ]
        #expect(Set(errors.map(\.code)).count == errors.count)
        #expect(errors.allSatisfy { $0.code.hasPrefix("id_token.") && $0.errorDescription != nil })
    }
}
