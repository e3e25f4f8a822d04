import Foundation
import LimenWire
import Testing

@Suite("PKCE (RFC 7636)")
struct PKCETests {
    @Test("the S256 challenge matches RFC 7636 Appendix B")
    func appendixB() throws {
        // RFC 7636 Appendix B: verifier from 32 octets, challenge = BASE64URL(SHA256(verifier)).
        let pkce = try #require(PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(pkce.method == "S256")
    }

    @Test("fresh verifiers are 43 unreserved characters and never repeat")
    func freshVerifiers() {
        let verifiers = (0..<100).map { _ in PKCE().verifier }
        #expect(Set(verifiers).count == 100)
        #expect(verifiers.allSatisfy { $0.count == 43 && PKCE(verifier: $0) != nil })
    }

    @Test(
        "verifiers outside RFC 7636 §4.1 are refused",
        arguments: ["short", String(repeating: "a", count: 129), String(repeating: "a", count: 42) + "+="])
    func refusesBadVerifiers(verifier: String) {
        #expect(PKCE(verifier: verifier) == nil)
    }
}
