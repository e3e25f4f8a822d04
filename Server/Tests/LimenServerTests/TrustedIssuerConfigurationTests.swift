import Foundation
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Trusted issuers configuration")
struct TrustedIssuerConfigurationTests {
    @Test("a trusted_issuers list in the file is read with every member")
    func fullEntry() throws {
        let configuration = try ServerConfiguration.resolve(
            file: """
                trusted_issuers:
                  - issuer: https://accounts.example.com
                    audiences: [app-ios, app-android]
                  - issuer: https://id.partner.example
                    jwks_url: https://id.partner.example/keys
                    audiences: limen
                    algorithms: [ES256]
                    max_token_age: 10m
                    link_by_verified_email: true
                    claims: {email: mail, name: display_name}
                """)
        var claims = TrustedIssuer.ClaimNames()
        claims.email = "mail"
        claims.name = "display_name"
        #expect(
            configuration.trustedIssuers == [
                TrustedIssuer(issuer: "https://accounts.example.com", audiences: ["app-ios", "app-android"]),
                TrustedIssuer(
                    issuer: "https://id.partner.example", jwksURL: URL(string: "https://id.partner.example/keys"),
                    audiences: ["limen"], algorithms: [.es256], maxTokenAge: 600, linkByVerifiedEmail: true,
                    claims: claims),
            ])
        #expect(configuration.trustedIssuers[0].identityKind == "oidc:https://accounts.example.com")
    }

    @Test("LIMEN_TRUSTED_ISSUERS (JSON) takes the place of the file's list")
    func environmentWins() throws {
        let configuration = try ServerConfiguration.resolve(
            file: "trusted_issuers: [{issuer: https://a.example, audiences: [x]}]",
            environment: ["LIMEN_TRUSTED_ISSUERS": #"[{"issuer": "https://b.example", "audiences": ["y"]}]"#])
        #expect(configuration.trustedIssuers == [TrustedIssuer(issuer: "https://b.example", audiences: ["y"])])
    }

    @Test(
        "a bad entry is refused at start, naming the key",
        arguments: [
            ("[{issuer: https://a.example, audiences: []}]", "trusted_issuers.0.audiences"),
            ("[{issuer: https://a.example}]", "trusted_issuers.0.audiences"),
            ("[{issuer: 'not a url', audiences: [x]}]", "trusted_issuers.0.issuer"),
            ("[{issuer: http://a.example, audiences: [x]}]", "trusted_issuers.0.issuer"),
            (
                "[{issuer: https://a.example, audiences: [x], jwks_url: 'ftp://a.example/keys'}]",
                "trusted_issuers.0.jwks_url"
            ),
            (
                "[{issuer: https://a.example, audiences: [x], jwks_url: 'http://a.example/keys'}]",
                "trusted_issuers.0.jwks_url"
            ),
            ("[{issuer: https://a.example, audiences: [x], algorithms: [HS256]}]", "trusted_issuers.0.algorithms"),
            ("[{issuer: https://a.example, audiences: [x], algorithms: [none]}]", "trusted_issuers.0.algorithms"),
            ("[{issuer: https://a.example, audiences: [x], max_token_age: soon}]", "trusted_issuers.0.max_token_age"),
            (
                "[{issuer: https://a.example, audiences: [x], link_by_verified_email: maybe}]",
                "trusted_issuers.0.link_by_verified_email"
            ),
            (
                "[{issuer: https://a.example, audiences: [x], claims: {subject: uid}}]",
                "trusted_issuers.0.claims.subject"
            ),
            ("[{issuer: https://a.example, audiences: [x], audience: [y]}]", "trusted_issuers.0.audience"),
            (
                "[{issuer: https://a.example, audiences: [x]}, {issuer: https://a.example, audiences: [y]}]",
                "trusted_issuers.1.issuer"
            ),
            ("{issuer: https://a.example, audiences: [x]}", "trusted_issuers"),
        ])
    func refused(list: String, key: String) throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(file: "trusted_issuers: \(list)")
        }
        #expect(error?.key.hasSuffix(": " + key) == true, "\(error?.key ?? "-")")
    }

    @Test("a bad LIMEN_TRUSTED_ISSUERS is refused naming the variable and the member")
    func badEnvironment() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(
                flags: ConfigurationFlags(),
                environment: ["LIMEN_TRUSTED_ISSUERS": #"[{"issuer": "https://a.example", "audiences": []}]"#])
        }
        #expect(error?.key == "LIMEN_TRUSTED_ISSUERS.0.audiences")
    }
}
