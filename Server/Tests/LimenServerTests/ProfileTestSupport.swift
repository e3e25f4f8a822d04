import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import NIOCore

@testable import LimenServer
@testable import LimenServerCore

/// JWE compact strings of the shape encrypted profile fields take, and ones that are not.
enum SampleJWE {
    /// A JWE compact string with `header` (JSON text), the encrypted key, IV and tag of the given byte counts.
    static func make(
        header: String = #"{"alg":"dir","enc":"A256GCM","kid":"device-key-1"}"#,
        encryptedKeyBytes: Int = 0,
        ivBytes: Int = 12,
        tagBytes: Int = 16
    ) -> String {
        [
            Base64URL.encode(Data(header.utf8)), Base64URL.encode(Data(repeating: 7, count: encryptedKeyBytes)),
            Base64URL.encode(Data(repeating: 1, count: ivBytes)), Base64URL.encode(Data("ciphertext".utf8)),
            Base64URL.encode(Data(repeating: 2, count: tagBytes)),
        ].joined(separator: ".")
    }

    /// A well-formed one.
    static let valid = make()
}

extension TokenFixture {
    /// The app schema most profile tests use: one field of each type and rule, a field users may not edit, two
    /// encrypted fields (one of them a standard claim), and standard claims in clear.
    static let profileSchemaJSON = #"""
        {"fields": {
            "nickname": {"type": "string", "display_name": "Nickname",
                         "validation": {"regex": "^[a-z]+$", "min": 2, "max": 10}},
            "given_name": {"type": "string"},
            "name": {"type": "string"},
            "picture": {"type": "string"},
            "age": {"type": "number", "validation": {"min": 0, "max": 150}},
            "newsletter": {"type": "boolean"},
            "birthdate": {"type": "date"},
            "address": {"type": "object"},
            "tags": {"type": "array", "validation": {"min": 1, "max": 3}},
            "plan": {"type": "string", "user_editable": false},
            "diagnosis": {"type": "string", "encrypted": true},
            "locale": {"type": "string", "encrypted": true}
        }}
        """#

    /// Stores `json` as the app schema, as the admin API would.
    func installProfileSchema(_ json: String = profileSchemaJSON) async throws {
        try await provider.installProfileSchema(json)
    }

    /// A request to `/v1/me/data` (or `path`) with a bearer token, a body of `contentType`, `If-Match` and
    /// `If-None-Match`.
    func profileRequest(
        _ method: HTTPTypes.HTTPRequest.Method,
        token: String?,
        json: String? = nil,
        contentType: String? = nil,
        ifMatch: String? = nil,
        ifNoneMatch: String? = nil,
        path: String = "/v1/me/data"
    ) async throws -> RecordedResponse {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        if json != nil {
            headers[.contentType] =
                contentType ?? (method == .patch ? ProfileBody.mergePatchType : ProfileBody.jsonType)
        }
        if let ifMatch { headers[.ifMatch] = ifMatch }
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        return try await client.execute(
            uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) }
        ) { response in
            RecordedResponse(
                status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }

    /// An access token of the native client for `scope`.
    func accessToken(scope: String = "openid email profile offline_access") async throws -> String {
        let tokens = try await signIn(scope: scope)
        guard let token = tokens["access_token"] else { throw ProfileTestError.noToken(tokens.text) }
        return token
    }
}

/// A test set-up step that did not go as planned.
enum ProfileTestError: Error {
    /// The sign-in gave no access token.
    case noToken(String)
}

extension RecordedResponse {
    /// The `data` member of a profile answer.
    var profileData: [String: JSONValue]? { json["data"]?.objectValue }
}

extension ServerComposition {
    /// Stores `json` (``TokenFixture/profileSchemaJSON`` by default) as the app schema, as the admin API would.
    func installProfileSchema(_ json: String = TokenFixture.profileSchemaJSON) async throws {
        let schema = try ProfileSchema(parsing: try JSONValue(parsing: Data(json.utf8)))
        try await schema.applyAsAdministered(to: store, now: now())
        profileSchemas.forget()
    }
}
