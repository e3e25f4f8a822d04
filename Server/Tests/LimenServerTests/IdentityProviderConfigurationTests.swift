import Foundation
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Identity providers configuration")
struct IdentityProviderConfigurationTests {
    @Test("an identity_providers list in the file is read with every member and the defaults")
    func fullEntry() throws {
        let configuration = try ServerConfiguration.resolve(
            file: """
                identity_providers:
                  - id: partner
                    display_name: Partner ID
                    issuer: https://id.partner.example
                    client_id: limen
                    client_secret: s3cr3t-value
                    scopes: [openid, email]
                    link_by_verified_email: true
                  - {id: corp_sso, display_name: Corp, issuer: 'http://127.0.0.1:9000/oidc', client_id: app}
                """)
        #expect(
            configuration.identityProviders == [
                IdentityProvider(
                    id: "partner", displayName: "Partner ID", issuer: "https://id.partner.example",
                    clientID: "limen", clientSecret: "s3cr3t-value", scopes: ["openid", "email"],
                    linkByVerifiedEmail: true),
                IdentityProvider(
                    id: "corp_sso", displayName: "Corp", issuer: "http://127.0.0.1:9000/oidc", clientID: "app"),
            ])
        #expect(configuration.identityProviders[1].scopes == ["openid", "email", "profile"])
        #expect(configuration.identityProviders[1].linkByVerifiedEmail == false)
        #expect(configuration.identityProviders[0].identityKind == "oidc:https://id.partner.example")
    }

    @Test("the client secret never appears in the entry's description")
    func secretHidden() {
        let provider = IdentityProvider(
            id: "p", displayName: "P", issuer: "https://p.example", clientID: "c", clientSecret: "s3cr3t-value")
        #expect(!"\(provider)".contains("s3cr3t-value"))
        #expect(!String(reflecting: provider).contains("s3cr3t-value"))
    }

    @Test("LIMEN_IDENTITY_PROVIDERS (JSON) takes the place of the file's list")
    func environmentWins() throws {
        let configuration = try ServerConfiguration.resolve(
            file: "identity_providers: [{id: a, display_name: A, issuer: https://a.example, client_id: x}]",
            environment: [
                "LIMEN_IDENTITY_PROVIDERS":
                    #"[{"id": "b", "display_name": "B", "issuer": "https://b.example", "client_id": "y"}]"#
            ])
        #expect(
            configuration.identityProviders == [
                IdentityProvider(id: "b", displayName: "B", issuer: "https://b.example", clientID: "y")
            ])
    }

    @Test(
        "a bad entry is refused at start, naming the key",
        arguments: [
            ("[{display_name: A, issuer: https://a.example, client_id: x}]", "identity_providers.0.id"),
            ("[{id: 'A b', display_name: A, issuer: https://a.example, client_id: x}]", "identity_providers.0.id"),
            ("[{id: a/b, display_name: A, issuer: https://a.example, client_id: x}]", "identity_providers.0.id"),
            ("[{id: a, issuer: https://a.example, client_id: x}]", "identity_providers.0.display_name"),
            ("[{id: a, display_name: A, client_id: x}]", "identity_providers.0.issuer"),
            ("[{id: a, display_name: A, issuer: http://a.example, client_id: x}]", "identity_providers.0.issuer"),
            ("[{id: a, display_name: A, issuer: 'https://a.example/', client_id: x}]", "identity_providers.0.issuer"),
            ("[{id: a, display_name: A, issuer: https://a.example}]", "identity_providers.0.client_id"),
            (
                "[{id: a, display_name: A, issuer: https://a.example, client_id: x, client_secret: ''}]",
                "identity_providers.0.client_secret"
            ),
            (
                "[{id: a, display_name: A, issuer: https://a.example, client_id: x, scopes: []}]",
                "identity_providers.0.scopes"
            ),
            (
                "[{id: a, display_name: A, issuer: https://a.example, client_id: x, scopes: ['open id']}]",
                "identity_providers.0.scopes"
            ),
            (
                "[{id: a, display_name: A, issuer: https://a.example, client_id: x, link_by_verified_email: maybe}]",
                "identity_providers.0.link_by_verified_email"
            ),
            (
                "[{id: a, display_name: A, issuer: https://a.example, client_id: x, secret: y}]",
                "identity_providers.0.secret"
            ),
            (
                "[{id: a, display_name: A, issuer: https://a.example, client_id: x}, "
                    + "{id: a, display_name: B, issuer: https://b.example, client_id: y}]",
                "identity_providers.1.id"
            ),
            ("{id: a, display_name: A, issuer: https://a.example, client_id: x}", "identity_providers"),
        ])
    func refused(list: String, key: String) throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(file: "identity_providers: \(list)")
        }
        #expect(error?.key.hasSuffix(": " + key) == true, "\(error?.key ?? "-")")
    }

    @Test("a refused client secret is not repeated in the error")
    func secretNotInError() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(
                file: "identity_providers: [{id: a, display_name: A, issuer: https://a.example, client_secret: hush}]")
        }
        #expect(error.map { !"\($0)".contains("hush") } == true)
    }

    @Test("a bad LIMEN_IDENTITY_PROVIDERS is refused naming the variable and the member")
    func badEnvironment() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(
                flags: ConfigurationFlags(),
                environment: [
                    "LIMEN_IDENTITY_PROVIDERS": #"[{"id": "a", "display_name": "A", "issuer": "https://a.example"}]"#
                ])
        }
        #expect(error?.key == "LIMEN_IDENTITY_PROVIDERS.0.client_id")
    }
}
