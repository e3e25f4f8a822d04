import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Token endpoints: a failure that is not the client's is server_error JSON")
struct OAuthServerErrorTests {
    @Test(
        "with the store gone, each token endpoint answers 500 server_error as RFC 6749 §5.2 JSON, uncacheable",
        arguments: ["/token", "/revoke", "/introspect", "/device_authorization"]
    )
    func storeFailure(path: String) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let provider = try await ServerComposition.bootstrap(configuration: .testing(directory: directory))
        await provider.store.close()
        let app = Application(router: LimenServerApplication.router(composition: provider))
        try await app.test(.router) { client in
            let body = "grant_type=refresh_token&refresh_token=abc&token=abc&client_id=limen-cli"
            try await client.execute(
                uri: path, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: body)
            ) { response in
                #expect(response.status == .internalServerError)
                #expect(response.headers[.cacheControl] == "no-store")
                #expect(response.headers[.contentType] == "application/json")
                let json = try JSONDecoder().decode(
                    [String: JSONValue].self, from: Data(response.body.readableBytesView))
                #expect(json["error"] == .string("server_error"))
            }
        }
    }
}
