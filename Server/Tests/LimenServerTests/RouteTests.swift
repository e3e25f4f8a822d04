import Foundation
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Runs `body` against the provider's router, with a fresh data folder.
private func withRouter(
    _ body: @Sendable (any TestClientProtocol, ServerComposition) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let provider = try await ServerComposition.bootstrap(configuration: .testing(directory: directory))
    let app = Application(router: LimenServerApplication.router(composition: provider))
    do {
        try await app.test(.router) { client in try await body(client, provider) }
    } catch {
        await provider.store.close()
        throw error
    }
    await provider.store.close()
}

private func json(_ buffer: ByteBuffer) throws -> [String: JSONValue] {
    try JSONDecoder().decode([String: JSONValue].self, from: Data(buffer.readableBytesView))
}

@Suite("Discovery, JWKS and health")
struct DiscoveryRouteTests {
    @Test("both well-known documents describe the issuer, its endpoints and what it supports")
    func discoveryDocument() async throws {
        try await withRouter { client, _ in
            var documents: [[String: JSONValue]] = []
            for path in ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok)
                    #expect(response.headers[.contentType] == "application/json")
                    documents.append(try json(response.body))
                }
            }
            #expect(documents.count == 2)
            #expect(documents.first == documents.last)
            let document = try #require(documents.first)
            #expect(document["issuer"]?.stringValue == "http://127.0.0.1:8080")
            #expect(document["authorization_endpoint"]?.stringValue == "http://127.0.0.1:8080/authorize")
            #expect(document["token_endpoint"]?.stringValue == "http://127.0.0.1:8080/token")
            #expect(document["jwks_uri"]?.stringValue == "http://127.0.0.1:8080/jwks")
            #expect(document["userinfo_endpoint"]?.stringValue == "http://127.0.0.1:8080/userinfo")
            #expect(document["revocation_endpoint"]?.stringValue == "http://127.0.0.1:8080/revoke")
            #expect(document["introspection_endpoint"]?.stringValue == "http://127.0.0.1:8080/introspect")
            #expect(
                document["grant_types_supported"]?.stringArrayValue
                    == ["authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:device_code"])
            #expect(
                document["device_authorization_endpoint"]?.stringValue
                    == "http://127.0.0.1:8080/device_authorization")
            #expect(document["claims_supported"]?.stringArrayValue?.contains("email_verified") == true)
            #expect(
                document["revocation_endpoint_auth_methods_supported"]?.stringArrayValue
                    == ["none", "client_secret_basic", "client_secret_post"]
            )
            #expect(
                document["introspection_endpoint_auth_methods_supported"]?.stringArrayValue
                    == ["client_secret_basic", "client_secret_post"]
            )
            #expect(document["response_types_supported"]?.stringArrayValue == ["code"])
            #expect(document["code_challenge_methods_supported"]?.stringArrayValue == ["S256"])
            #expect(document["id_token_signing_alg_values_supported"]?.stringArrayValue == ["ES256", "RS256"])
            #expect(document["authorization_response_iss_parameter_supported"] == .bool(true))
            #expect(document["subject_types_supported"]?.stringArrayValue == ["public"])
            #expect(document["grant_types_supported"]?.stringArrayValue?.contains("authorization_code") == true)
            #expect(
                document["token_endpoint_auth_methods_supported"]?.stringArrayValue
                    == ["none", "client_secret_basic", "client_secret_post"]
            )
        }
    }

    @Test("the JWKS publishes the ES256 and RS256 public keys with kid, alg and use=sig, and no private parts")
    func jwks() async throws {
        try await withRouter { client, provider in
            try await client.execute(uri: "/jwks", method: .get) { response in
                #expect(response.status == .ok)
                let keys = try #require(
                    try json(response.body)["keys"].flatMap { value -> [JSONValue]? in
                        if case .array(let keys) = value { return keys }
                        return nil
                    })
                let objects = keys.compactMap(\.objectValue)
                #expect(objects.count == 2)
                #expect(Set(objects.compactMap { $0["kid"]?.stringValue }) == Set(provider.keys.keys.map(\.kid)))
                let ec = try #require(objects.first { $0["alg"]?.stringValue == "ES256" })
                #expect(ec["kty"]?.stringValue == "EC")
                #expect(ec["crv"]?.stringValue == "P-256")
                #expect(ec["use"]?.stringValue == "sig")
                #expect(ec["x"]?.stringValue?.count == 43)
                let rsa = try #require(objects.first { $0["alg"]?.stringValue == "RS256" })
                #expect(rsa["kty"]?.stringValue == "RSA")
                #expect(rsa["use"]?.stringValue == "sig")
                #expect(rsa["e"]?.stringValue == "AQAB")
                #expect(rsa["n"]?.stringValue?.count == 342)  // 2048 bits
                for object in objects {
                    #expect(object["d"] == nil && object["p"] == nil && object["q"] == nil)
                }
            }
        }
    }

    @Test("/healthz answers ok while the store answers")
    func health() async throws {
        try await withRouter { client, _ in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                let body = try json(response.body)
                #expect(body["status"]?.stringValue == "ok")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[.contentSecurityPolicy] == "default-src 'none'; frame-ancestors 'none'")
            }
        }
    }
}
