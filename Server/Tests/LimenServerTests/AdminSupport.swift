import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import NIOCore

@testable import LimenServer
@testable import LimenServerCore

extension TokenFixture {
    /// Turns the admin API on: a new admin token, whose hash is stored.
    func installAdminToken() async throws -> String {
        try await AdminToken.replace(in: provider.store, now: clock.now)
    }

    /// An admin API request: `json` as an `application/json` body, `token` as the bearer token when given, and
    /// `If-Match` when given.
    func admin(
        _ method: HTTPTypes.HTTPRequest.Method,
        _ path: String,
        token: String?,
        json: String? = nil,
        contentType: String = "application/json",
        ifMatch: String? = nil
    ) async throws -> RecordedResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if let ifMatch { headers[.ifMatch] = ifMatch }
        if json != nil { headers[.contentType] = contentType }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { response in
            RecordedResponse(
                status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }

    /// Runs `body` with the admin API on, passing the fixture and its admin token.
    static func runAdmin(
        on backend: TokenBackend = .sqlite,
        _ body: @Sendable (TokenFixture, String) async throws -> Void
    ) async throws {
        try await run(on: backend) { fixture in
            try await body(fixture, try await fixture.installAdminToken())
        }
    }
}

extension RecordedResponse {
    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

extension RecordedResponse {
    /// The objects of the array member `name` (empty when it is not an array of objects).
    func objects(in name: String) -> [[String: JSONValue]] {
        guard case .array(let items) = json[name] else { return [] }
        return items.compactMap(\.objectValue)
    }
}
