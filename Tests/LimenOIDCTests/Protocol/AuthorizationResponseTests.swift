import Foundation
import LimenOIDC
import Testing

@Suite("Authorization response")
struct AuthorizationResponseTests {
    let issuer = "https://id.example.com"
    let request = AuthorizationRequest(
        clientID: "app",
        redirectURI: URL(string: "http://127.0.0.1:53111/callback")!,
        state: "s-123"
    )

    func parse(_ url: String, issRequired: Bool = false) throws(OIDCError) -> AuthorizationResponse {
        try AuthorizationResponse(
            url: URL(string: url)!, for: request, issuer: issuer, issuerParameterRequired: issRequired)
    }

    @Test("reads the code from the query")
    func codeFromQuery() throws {
        let response = try parse(
            "http://127.0.0.1:53111/callback?code=abc&state=s-123&iss=https%3A%2F%2Fid.example.com")
        #expect(response.code == "abc")
    }

    @Test("reads the code from the fragment")
    func codeFromFragment() throws {
        #expect(try parse("http://127.0.0.1:53111/callback#code=abc&state=s-123").code == "abc")
    }

    @Test("a different state is refused")
    func stateMismatch() {
        #expect(throws: OIDCError.authorizationResponse(.stateMismatch)) {
            try parse("http://127.0.0.1:53111/callback?code=abc&state=s-124")
        }
    }

    @Test("a missing state is refused, even for an error response")
    func missingState() {
        #expect(throws: OIDCError.authorizationResponse(.stateMismatch)) {
            try parse("http://127.0.0.1:53111/callback?error=access_denied")
        }
    }

    @Test("an iss naming another issuer is refused (RFC 9207)")
    func issuerMismatch() {
        #expect(
            throws: OIDCError.authorizationResponse(.issuerMismatch(expected: issuer, actual: "https://evil.example"))
        ) {
            try parse("http://127.0.0.1:53111/callback?code=abc&state=s-123&iss=https%3A%2F%2Fevil.example")
        }
    }

    @Test("a missing iss is refused when the provider advertises it (RFC 9207 §2.4)")
    func issuerRequired() {
        #expect(throws: OIDCError.authorizationResponse(.missingIssuer)) {
            try parse("http://127.0.0.1:53111/callback?code=abc&state=s-123", issRequired: true)
        }
    }

    @Test("an error redirect becomes a typed OAuth error with its description and URI")
    func errorRedirect() {
        let expected = OAuthError(error: .accessDenied, errorDescription: "user said no", errorURI: "https://e/x")
        #expect(throws: OIDCError.oauth(expected)) {
            try parse(
                "http://127.0.0.1:53111/callback?error=access_denied&error_description=user+said+no&error_uri=https%3A%2F%2Fe%2Fx&state=s-123"
            )
        }
    }

    @Test("a redirect to another path is refused")
    func otherPath() {
        #expect(throws: OIDCError.authorizationResponse(.unexpectedRedirect("http://127.0.0.1:53111/other"))) {
            try parse("http://127.0.0.1:53111/other?code=abc&state=s-123")
        }
    }

    @Test("a response without code or error is refused")
    func missingCode() {
        #expect(throws: OIDCError.authorizationResponse(.missingCode)) {
            try parse("http://127.0.0.1:53111/callback?state=s-123")
        }
    }
}
