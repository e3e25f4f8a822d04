import Foundation
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Client registration")
struct ClientRegistrationTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a confidential client gets a 256-bit secret that is stored only as its SHA-256")
    func confidentialClientSecret() throws {
        let registration = ClientRegistration(id: "web", kind: .confidential, redirectURIs: ["https://app.example/cb"])
        let (client, secret) = try registration.record(now: now)
        let issued = try #require(secret)
        #expect(issued.count == 43)
        #expect(client.secretHash == ClientSecret.hash(issued))
        #expect(client.secretHash?.count == 32)
        #expect(ClientSecret.matches(issued, hash: try #require(client.secretHash)))
        #expect(!ClientSecret.matches(issued + "x", hash: try #require(client.secretHash)))
        #expect(client.name == "web")
    }

    @Test("a public client has no secret")
    func publicClientNoSecret() throws {
        let registration = ClientRegistration(
            id: "app", kind: .public, isNative: true, redirectURIs: ["com.example.app:/callback"]
        )
        let (client, secret) = try registration.record(now: now)
        #expect(secret == nil)
        #expect(client.secretHash == nil)
    }

    @Test(
        "refused registrations say why",
        arguments: [
            (
                ClientRegistration(id: "", kind: .public, redirectURIs: ["https://a.example/cb"]),
                "clients.invalid_client_id"
            ),
            (
                ClientRegistration(id: "a b", kind: .public, redirectURIs: ["https://a.example/cb"]),
                "clients.invalid_client_id"
            ),
            (ClientRegistration(id: "a", kind: .public, redirectURIs: []), "clients.no_redirect_uri"),
            (
                ClientRegistration(id: "a", kind: .public, redirectURIs: ["https://a.example/cb#x"]),
                "clients.invalid_redirect_uri"
            ),
            (
                ClientRegistration(id: "a", kind: .public, redirectURIs: ["http://a.example/cb"]),
                "clients.invalid_redirect_uri"
            ),
            (
                ClientRegistration(id: "a", kind: .public, redirectURIs: ["http://localhost/cb"]),
                "clients.invalid_redirect_uri"
            ),
            (
                ClientRegistration(id: "a", kind: .public, redirectURIs: ["com.example.app:/cb"]),
                "clients.invalid_redirect_uri"
            ),
            (
                ClientRegistration(id: "a", kind: .public, isNative: true, redirectURIs: ["myapp:/cb"]),
                "clients.invalid_redirect_uri"
            ),
            (
                ClientRegistration(
                    id: "a", kind: .public, redirectURIs: ["https://a.example/cb"], idTokenSignedResponseAlg: "HS256"
                ),
                "clients.unsupported_algorithm"
            ),
            (
                ClientRegistration(id: "a", kind: .confidential, isNative: true, redirectURIs: ["http://127.0.0.1/cb"]),
                "clients.native_client_with_secret"
            ),
            (
                ClientRegistration(id: "a", kind: .public, isNative: true, redirectURIs: ["http://127.0.0.1:0/cb"]),
                "clients.invalid_redirect_uri"
            ),
            (
                ClientRegistration(id: "a", kind: .public, redirectURIs: ["https://a.example/cb"], allowsNoPKCE: true),
                "clients.public_client_without_pkce"
            ),
        ] as [(ClientRegistration, String)]
    )
    func refused(_ registration: ClientRegistration, code: String) {
        let error = #expect(throws: ClientRegistrationError.self) { try registration.record(now: now) }
        #expect(error?.code == code)
    }

    @Test("removing a client removes its pending codes")
    func removeCascades() async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        try await store.insertClientIfAbsent(SeedClients.cli(now: now))
        try await store.insertAuthorizationCode(
            AuthorizationCodeRecord(
                codeHash: Data(repeating: 9, count: 32), clientID: "limen-cli",
                redirectURI: "http://127.0.0.1:1/callback",
                subject: "u", scope: "openid", authTime: now, expiresAt: now.addingTimeInterval(60)
            )
        )
        #expect(try await store.deleteClient(id: "limen-cli"))
        #expect(try await store.deleteClient(id: "limen-cli") == false)
        let redemption = try await store.redeemAuthorizationCode(
            hash: Data(repeating: 9, count: 32), clientID: "limen-cli", grantID: "g", now: now)
        #expect(redemption == .unknown)
        await store.close()
    }
}
