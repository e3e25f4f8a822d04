import Foundation
import LimenWire
import TestSupport
import Testing

/// A published JWS example: the JWK and compact JWS exactly as the RFC prints them (line breaks removed).
struct PublishedJWS: Sendable, CustomTestStringConvertible {
    let section: String
    let algorithm: JWSAlgorithm
    let jwk: String
    let compact: String
    let payload: String

    var testDescription: String { section }

    /// The JWKS holding only this example's key.
    var jwks: JSONWebKeySet {
        get throws { try JSONWebKeySet(json: Data(#"{"keys":[\#(jwk)]}"#.utf8)) }
    }
}

/// The JWS payload shared by RFC 7515 A.1–A.3: `{"iss":"joe",CRLF "exp":1300819380,CRLF "http://example.com/is_root":true}`.
private let rfc7515Payload = "{\"iss\":\"joe\",\r\n \"exp\":1300819380,\r\n \"http://example.com/is_root\":true}"

let publishedExamples: [PublishedJWS] = [
    PublishedJWS(
        section: "RFC 7515 Appendix A.2 (RS256)",
        algorithm: .rs256,
        // The public members of the A.2 key; the private members (d, p, q, dp, dq, qi) are not needed to verify.
        jwk:
            #"{"kty":"RSA","n":"ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ","e":"AQAB"}"#,
        compact: "eyJhbGciOiJSUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw",
        payload: rfc7515Payload
    ),
    PublishedJWS(
        section: "RFC 7515 Appendix A.3 (ES256)",
        algorithm: .es256,
        // The public members of the A.3 key (no kid: chosen by the single-key rule).
        jwk:
            #"{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}"#,
        compact: "eyJhbGciOiJFUzI1NiJ9"
            + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ"
            + ".DtEhU3ljbEg8L38VWAfUAqOyKAM6-Xx-F4GawxaepmXFCgfTjDxw5djxLa8ISlSApmWQxfKTUJqPP3-Kg6NU1Q",
        payload: rfc7515Payload
    ),
    PublishedJWS(
        section: "RFC 8037 Appendix A.4 (Ed25519)",
        algorithm: .edDSA,
        // The public key of RFC 8037 Appendix A.2.
        jwk: #"{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}"#,
        compact: "eyJhbGciOiJFZERTQSJ9.RXhhbXBsZSBvZiBFZDI1NTE5IHNpZ25pbmc"
            + ".hgyY0il_MGCjP0JzlnLWG1PPOt7-09PGcvMg3AIbQR6dWbhijcNR4ki4iylGjg5BhVsPt9g7sVvpAr_MuM0KAg",
        payload: "Example of Ed25519 signing"
    ),
]

@Suite("JWS verification known answers")
struct JWSVerifierKnownAnswerTests {
    @Test("a published example verifies and yields its payload", arguments: publishedExamples)
    func publishedExampleVerifies(_ example: PublishedJWS) async throws {
        let payload = try await JWSVerifier.verify(
            compact: example.compact,
            jwks: example.jwks,
            allowedAlgorithms: [example.algorithm]
        )
        #expect(String(decoding: payload, as: UTF8.self) == example.payload)
    }

    @Test("a published example with one signature byte flipped is refused", arguments: publishedExamples)
    func flippedSignatureIsRefused(_ example: PublishedJWS) async throws {
        let tampered = TestBase64URL.flippingSignatureByte(of: example.compact, at: 10)
        #expect(tampered != example.compact)
        await #expect(throws: IDTokenValidationError.invalidSignature) {
            try await JWSVerifier.verify(compact: tampered, jwks: example.jwks, allowedAlgorithms: [example.algorithm])
        }
    }

    @Test("a published example is refused when its algorithm is not allowed", arguments: publishedExamples)
    func disallowedAlgorithmIsRefused(_ example: PublishedJWS) async throws {
        let others = Set(JWSAlgorithm.allCases).subtracting([example.algorithm])
        await #expect(throws: IDTokenValidationError.algorithmNotAllowed(example.algorithm.rawValue)) {
            try await JWSVerifier.verify(compact: example.compact, jwks: example.jwks, allowedAlgorithms: others)
        }
    }
}
