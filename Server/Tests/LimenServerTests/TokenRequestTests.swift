import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("POST /token: client authentication and request shape")
struct TokenRequestTests {
    /// A code exchange for the confidential `web` client, without client authentication.
    private func webExchange(_ fixture: TokenFixture) async throws -> [(String, String)] {
        let code = try await fixture.issueCode(clientID: "web", redirectURI: TokenFixture.webRedirect)
        return [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.webRedirect),
            ("code_verifier", PKCE.fixture.verifier),
        ]
    }

    @Test("client_secret_basic: id and secret are form-url-decoded after base64 (RFC 6749 §2.3.1)")
    func basicAuthentication() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post(
                "/token", try await webExchange(fixture), headers: TokenFixture.basic("web", TokenFixture.webSecret))
            #expect(response.status == .ok)
        }
    }

    @Test("client_secret_post: client_id and client_secret in the body")
    func postAuthentication() async throws {
        try await TokenFixture.run { fixture in
            let fields =
                try await webExchange(fixture) + [("client_id", "web"), ("client_secret", TokenFixture.webSecret)]
            #expect(try await fixture.post("/token", fields).status == .ok)
        }
    }

    @Test("a wrong secret over Basic is 401 invalid_client with a Basic challenge")
    func wrongBasicSecret() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post(
                "/token", try await webExchange(fixture), headers: TokenFixture.basic("web", "wrong"))
            #expect(response.status == .unauthorized)
            #expect(response.error == "invalid_client")
            #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Basic ") == true)
            #expect(response.headers[.cacheControl] == "no-store")
        }
    }

    @Test(
        "failed client authentication without Basic is 401 invalid_client without a challenge",
        arguments: [
            ("wrong secret", [("client_id", "web"), ("client_secret", "wrong")]),
            ("unknown client", [("client_id", "nobody"), ("client_secret", "x")]),
            ("unknown public client", [("client_id", "nobody")]),
            ("confidential client without its secret", [("client_id", "web")]),
            ("public client with a secret", [("client_id", "native"), ("client_secret", "x")]),
            ("no client at all", []),
        ] as [(String, [(String, String)])]
    )
    func failedAuthentication(_ label: String, _ credentials: [(String, String)]) async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post("/token", try await webExchange(fixture) + credentials)
            #expect(response.status == .unauthorized, "\(label)")
            #expect(response.error == "invalid_client", "\(label)")
            #expect(response.headers[.wwwAuthenticate] == nil, "\(label)")
        }
    }

    @Test("a malformed Basic header or an unknown client over Basic is 401 with a Basic challenge")
    func malformedBasic() async throws {
        try await TokenFixture.run { fixture in
            for headers: HTTPFields in [
                [.authorization: "Basic not-base64!"],
                [.authorization: "Basic " + Data("no-colon".utf8).base64EncodedString()],
                TokenFixture.basic("nobody", "x"),
            ] {
                let response = try await fixture.post("/token", try await webExchange(fixture), headers: headers)
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Basic ") == true)
            }
        }
    }

    @Test("two authentication methods at once are invalid_request")
    func twoMethods() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post(
                "/token", try await webExchange(fixture) + [("client_secret", TokenFixture.webSecret)],
                headers: TokenFixture.basic("web", TokenFixture.webSecret))
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_request")
        }
    }

    @Test("a body that is not a form is 415; JSON is not accepted")
    func notAForm() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post(
                "/token", [], headers: [.contentType: "application/json"],
                body: #"{"grant_type":"authorization_code"}"#)
            #expect(response.status == .unsupportedMediaType)
            #expect(response.error == "invalid_request")
        }
    }

    @Test("a body over 64 KiB is refused with 413")
    func oversized() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post(
                "/token", [("grant_type", "authorization_code"), ("padding", String(repeating: "a", count: 70_000))])
            #expect(response.status == .contentTooLarge)
            #expect(response.error == "invalid_request")
        }
    }

    @Test("a repeated parameter is invalid_request (RFC 6749 §3.2)")
    func repeatedParameter() async throws {
        try await TokenFixture.run { fixture in
            let code = try await fixture.issueCode()
            let response = try await fixture.post(
                "/token",
                [
                    ("grant_type", "authorization_code"), ("code", code), ("code", code), ("client_id", "native"),
                    ("redirect_uri", TokenFixture.nativeRedirect), ("code_verifier", PKCE.fixture.verifier),
                ])
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_request")
            #expect(response["error_description"] == "code is repeated")
            // The code was not touched: it still redeems.
            #expect(try await fixture.redeem(code).status == .ok)
        }
    }

    @Test("an unknown grant type is unsupported_grant_type; a missing one is invalid_request")
    func unsupportedGrantType() async throws {
        try await TokenFixture.run { fixture in
            for grantType in ["password", "client_credentials", "urn:ietf:params:oauth:grant-type:jwt-bearer"] {
                let response = try await fixture.post("/token", [("grant_type", grantType), ("client_id", "native")])
                #expect(response.status == .badRequest)
                #expect(response.error == "unsupported_grant_type")
            }
            #expect(try await fixture.post("/token", [("client_id", "native")]).error == "invalid_request")
        }
    }

    @Test("a client not registered for a grant type is unauthorized_client")
    func unauthorizedClient() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post(
                "/token",
                [("grant_type", "refresh_token"), ("refresh_token", "x")],
                headers: TokenFixture.basic("backend", TokenFixture.backendSecret))
            #expect(response.status == .badRequest)
            #expect(response.error == "unauthorized_client")
        }
    }
}
