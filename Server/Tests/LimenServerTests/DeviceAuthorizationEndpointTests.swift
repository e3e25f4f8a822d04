import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("POST /device_authorization (RFC 8628 §3.1–§3.2)")
struct DeviceAuthorizationEndpointTests {
    @Test("a public client gets a device code, an XXXX-XXXX user code, the verification URIs, 600 s and 5 s")
    func publicClientGetsCodes() async throws {
        try await withSignIn { fixture in
            let response = try await fixture.postForm(
                "/device_authorization", [("client_id", "limen-cli"), ("scope", "openid profile")])
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let deviceCode = try #require(response["device_code"])
            #expect(Base64URL.decode(deviceCode)?.count == 32)
            let userCode = try #require(response["user_code"])
            #expect(userCode.count == 9)
            #expect(Array(userCode)[4] == "-")
            #expect(userCode.filter { $0 != "-" }.allSatisfy(UserCode.alphabet.contains))
            #expect(response["verification_uri"] == fixture.issuer + "/device")
            #expect(response["verification_uri_complete"] == fixture.issuer + "/device?user_code=" + userCode)
            #expect(response.json["expires_in"] == .number(600))
            #expect(response.json["interval"] == .number(5))
        }
    }

    @Test("the codes are stored only as hashes: the device code's finds a pending record; the user code's is keyed")
    func storedAsHashes() async throws {
        try await withSignIn { fixture in
            let (deviceCode, userCode) = try await fixture.startDevice(scope: "openid email openid")
            let record = try #require(try await fixture.deviceRecord(deviceCode))
            #expect(record.status == .pending)
            #expect(record.clientID == "limen-cli")
            #expect(record.scope == "openid email")
            #expect(record.interval == 5)
            #expect(record.expiresAt == fixture.clock.now.addingTimeInterval(600))
            let normalised = userCode.filter { $0 != "-" }
            #expect(record.userCodeHash == UserCode.hash(normalised: normalised, keys: fixture.provider.derivedKeys))
            #expect(record.userCodeHash != Data(SHA256.hash(data: Data(normalised.utf8))), "not a plain SHA-256")
            let path = fixture.provider.configuration.databasePath
            for file in [path, path + "-wal"] {
                let bytes = (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data()
                #expect(!bytes.containsBytes(Data(deviceCode.utf8)))
                #expect(!bytes.containsBytes(Data(userCode.utf8)))
                #expect(!bytes.containsBytes(Data(userCode.filter { $0 != "-" }.utf8)))
            }
        }
    }

    @Test("two requests get different codes")
    func codesDiffer() async throws {
        try await withSignIn { fixture in
            let first = try await fixture.startDevice()
            let second = try await fixture.startDevice()
            #expect(first.deviceCode != second.deviceCode)
            #expect(first.userCode != second.userCode)
        }
    }

    @Test("a client without the device code grant is unauthorized_client")
    func clientWithoutGrantRefused() async throws {
        try await withSignIn { fixture in
            try await fixture.provider.store.insertClientIfAbsent(
                ClientRecord(
                    id: "browser-app", name: "Browser App", kind: .public, redirectURIs: ["https://b.example/cb"],
                    createdAt: fixture.clock.now))
            let response = try await fixture.postForm(
                "/device_authorization", [("client_id", "browser-app"), ("scope", "openid")])
            #expect(response.status == .badRequest)
            #expect(response.error == "unauthorized_client")
        }
    }

    @Test("an unknown client, or a confidential client without its secret, is invalid_client")
    func unauthenticatedClientRefused() async throws {
        try await withSignIn { fixture in
            for clientID in ["nobody", "web"] {
                let response = try await fixture.postForm(
                    "/device_authorization", [("client_id", clientID), ("scope", "openid")])
                #expect(response.status == .unauthorized)
                #expect(response.error == "invalid_client")
            }
        }
    }

    @Test("a confidential client with the grant authenticates with HTTP Basic")
    func confidentialClientWithBasic() async throws {
        try await withSignIn { fixture in
            try await fixture.provider.store.insertClientIfAbsent(
                ClientRecord(
                    id: "tv", name: "Living-room TV", kind: .confidential, secretHash: ClientSecret.hash("tv-secret"),
                    redirectURIs: [], grantTypes: [.deviceCode, .refreshToken],
                    createdAt: fixture.clock.now))
            let accepted = try await fixture.postForm(
                "/device_authorization", [("scope", "openid")], headers: TokenFixture.basic("tv", "tv-secret"))
            #expect(accepted.status == .ok)
            #expect(accepted["device_code"] != nil)
            let refused = try await fixture.postForm(
                "/device_authorization", [("scope", "openid")], headers: TokenFixture.basic("tv", "wrong"))
            #expect(refused.status == .unauthorized)
            #expect(refused.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
        }
    }

    @Test(
        "a scope without openid, or with an unknown scope, is invalid_scope",
        arguments: ["profile", "openid admin", ""])
    func scopeRefused(_ scope: String) async throws {
        try await withSignIn { fixture in
            let response = try await fixture.postForm(
                "/device_authorization", [("client_id", "limen-cli"), ("scope", scope)])
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_scope")
            #expect(response["error_description"]?.isEmpty == false)
        }
    }

    @Test("discovery names the device authorization endpoint and the device code grant")
    func discovery() async throws {
        try await withSignIn { fixture in
            let document = try await fixture.client.execute(
                uri: "/.well-known/openid-configuration", method: .get
            ) { response in
                try JSONDecoder().decode(ProviderMetadata.self, from: Data(response.body.readableBytesView))
            }
            #expect(document.deviceAuthorizationEndpoint?.absoluteString == fixture.issuer + "/device_authorization")
            #expect(document.grantTypesSupported?.contains(GrantType.deviceCode.rawValue) == true)
        }
    }
}
