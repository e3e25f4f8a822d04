import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// RFC 8707 resource indicators: an access token may name its API in `aud`, when the server lists that API.
@Suite("Resource indicators (RFC 8707): an access token can name its API")
struct ResourceIndicatorTests {
    private static let api = "https://api.example.com/orders"

    private static func listingTheAPI(_ configuration: inout ServerConfiguration) {
        configuration.resources = [api]
    }

    @Test(
        "a code or refresh token exchanged with a listed resource gives an access token whose aud names it and the issuer"
    )
    func audienceNamesTheResource() async throws {
        try await TokenFixture.run(configure: Self.listingTheAPI) { fixture in
            let issuer = fixture.provider.issuer.current
            let tokens = try await fixture.post(
                "/token",
                [
                    ("grant_type", "authorization_code"), ("code", try await fixture.issueCode()),
                    ("redirect_uri", TokenFixture.nativeRedirect), ("client_id", "native"),
                    ("code_verifier", PKCE.fixture.verifier), ("resource", Self.api),
                ])
            let accessToken = try #require(tokens["access_token"])
            #expect(try UnverifiedJWT(accessToken)[claim: "aud"] == .array([.string(Self.api), .string(issuer)]))
            #expect(try await fixture.userInfo(accessToken).status == .ok, "the issuer's own endpoints still accept it")

            let refreshed = try await fixture.post(
                "/token",
                [
                    ("grant_type", "refresh_token"), ("refresh_token", try #require(tokens["refresh_token"])),
                    ("client_id", "native"), ("resource", Self.api),
                ])
            let next = try #require(refreshed["access_token"])
            #expect(try UnverifiedJWT(next)[claim: "aud"] == .array([.string(Self.api), .string(issuer)]))
            let plain = try await fixture.refresh(try #require(refreshed["refresh_token"]))
            #expect(try UnverifiedJWT(try #require(plain["access_token"]))[claim: "aud"] == .string(issuer))
        }
    }

    @Test(
        "/token refuses a resource that is not listed, not absolute, or has a fragment: invalid_target",
        arguments: ["https://other.example.com", "/orders", "https://api.example.com/orders#x"])
    func tokenRefusesResource(_ resource: String) async throws {
        try await TokenFixture.run(configure: Self.listingTheAPI) { fixture in
            let response = try await fixture.post(
                "/token",
                [
                    ("grant_type", "authorization_code"), ("code", try await fixture.issueCode()),
                    ("redirect_uri", TokenFixture.nativeRedirect), ("client_id", "native"),
                    ("code_verifier", PKCE.fixture.verifier), ("resource", resource),
                ])
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_target")
        }
    }

    @Test(
        "/authorize refuses an unlisted or malformed resource with invalid_target; a listed one passes",
        arguments: [
            ("https://other.example.com", "invalid_target"), ("orders", "invalid_target"),
            ("https://api.example.com/orders#x", "invalid_target"), (api, nil),
        ] as [(String, String?)])
    func authorizeChecksResource(_ resource: String, _ error: String?) async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        try await store.insertClientIfAbsent(SeedClients.cli(now: Date()))
        let validator = AuthorizationValidator(store: store, resources: [Self.api])
        let outcome = try await validator.validate(
            FormFields.parse(
                FormEncoding.encode([
                    ("response_type", "code"), ("client_id", "limen-cli"),
                    ("redirect_uri", "http://127.0.0.1:5000/callback"), ("scope", "openid"),
                    ("code_challenge", PKCE.fixture.challenge), ("code_challenge_method", "S256"),
                    ("resource", resource),
                ]), allowingRepeats: true))
        await store.close()
        switch outcome {
        case .redirectError(_, let refused, _, _): #expect(refused == error)
        case .accepted: #expect(error == nil)
        case .errorPage(let refused, _): Issue.record("an error page: \(refused)")
        }
    }

    @Test("the resources setting takes absolute URIs from flags, the environment or a file, and refuses others")
    func setting() throws {
        let flagged = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(["--resource": Self.api, "--resource": "urn:example:ledger"]), environment: [:])
        #expect(flagged.resources == [Self.api, "urn:example:ledger"])
        let fromEnvironment = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(), environment: ["LIMEN_RESOURCES": "\(Self.api), https://b.example"])
        #expect(fromEnvironment.resources == [Self.api, "https://b.example"])
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(flags: ConfigurationFlags(["--resource": "/relative"]), environment: [:])
        }
        #expect(error?.key == "--resource")
    }
}
