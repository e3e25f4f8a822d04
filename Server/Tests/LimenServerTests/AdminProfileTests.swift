import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Admin API: the app schema and user profiles")
struct AdminProfileTests {
    @Test("PUT /admin/app/schema sets what GET /v1/app publishes; GET /admin/app/schema reads it back")
    func setSchema() async throws {
        try await TokenFixture.runAdmin { fixture, admin in
            let put = try await fixture.admin(
                .put, "/admin/app/schema", token: admin, json: TokenFixture.profileSchemaJSON)
            #expect(put.status == .ok, "\(put.text)")
            let published = try await fixture.get("/v1/app")
            #expect(published.json["schema"] == .object(put.json))
            #expect(published.json["encryption"] == .object(["enabled": .bool(true)]))
            #expect(try await fixture.admin(.get, "/admin/app/schema", token: admin).json == put.json)
            let cleared = try await fixture.admin(.put, "/admin/app/schema", token: admin, json: #"{"fields": {}}"#)
            #expect(cleared.status == .ok)
            #expect(try await fixture.get("/v1/app").json["encryption"] == .object(["enabled": .bool(false)]))
        }
    }

    @Test(
        "PUT /admin/app/schema refuses an encrypted identifying field, an invalid regex and unknown members, naming them",
        arguments: [
            (#"{"fields": {"email": {"type": "string", "encrypted": true}}}"#, "fields.email.encrypted: "),
            (#"{"fields": {"x": {"type": "string", "validation": {"regex": "[a-"}}}}"#, "fields.x.validation.regex: "),
            (#"{"fields": {"x": {"type": "string", "hidden": true}}}"#, "fields.x.hidden: "),
            (#"{"fields": {}, "encryption": {"enabled": true}}"#, "encryption is not a member"),
            (#"{"fields": {"x": {"type": "string"}, "x": {"type": "number"}}}"#, "x is given more than once"),
            (#"{"fields": 3}"#, "fields"),
            (#"{}"#, "fields is required"),
        ]
    )
    func schemaRefusals(json: String, description: String) async throws {
        try await TokenFixture.runAdmin { fixture, admin in
            try await fixture.installProfileSchema()
            let response = try await fixture.admin(.put, "/admin/app/schema", token: admin, json: json)
            #expect(response.status == .badRequest)
            #expect(response.error == "invalid_request")
            #expect(response["error_description"]?.hasPrefix(description) == true, "\(response.text)")
            #expect(
                try await fixture.get("/v1/app").json["schema"]?.objectValue?["fields"]?.objectValue?.count == 12,
                "unchanged")
        }
    }

    @Test("the schema body must be application/json and at most 64 KiB; without the admin token it is 401")
    func schemaBody() async throws {
        try await TokenFixture.runAdmin { fixture, admin in
            let text = try await fixture.admin(
                .put, "/admin/app/schema", token: admin, json: #"{"fields": {}}"#, contentType: "text/plain")
            #expect(text.status == .unsupportedMediaType)
            let big = String(repeating: " ", count: AdminJSON.maximumBodySize)
            let large = try await fixture.admin(
                .put, "/admin/app/schema", token: admin, json: #"{"fields": {}\#(big)}"#)
            #expect(large.status == .contentTooLarge)
            #expect(large.error == "request_too_large")
            let anonymous = try await fixture.admin(.put, "/admin/app/schema", token: nil, json: #"{"fields": {}}"#)
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test("an administrator reads a profile with encrypted fields opaque, and writes fields users may not edit")
    func userData() async throws {
        try await TokenFixture.runAdmin { fixture, admin in
            try await fixture.installProfileSchema()
            let token = try await fixture.accessToken()
            let written = try await fixture.profileRequest(
                .put, token: token, json: #"{"data": {"nickname": "ada", "diagnosis": "\#(SampleJWE.valid)"}}"#)
            #expect(written.status == .ok)
            let read = try await fixture.admin(.get, "/admin/users/user-1/data", token: admin)
            #expect(read.status == .ok)
            #expect(read.headers[.eTag] == "\"1\"")
            #expect(read.profileData == ["nickname": .string("ada"), "diagnosis": .object(["encrypted": .bool(true)])])
            #expect(!read.text.contains(SampleJWE.valid))

            // Read, edit, write back whole: the opaque value keeps the ciphertext.
            var edited = try #require(read.profileData)
            edited["plan"] = .string("pro")
            let put = try await fixture.admin(
                .put, "/admin/users/user-1/data", token: admin,
                json: JSONValue.object(["data": .object(edited)]).serializedText)
            #expect(put.status == .ok, "\(put.text)")
            #expect(put.profileData == edited)
            let mine = try await fixture.profileRequest(.get, token: token)
            #expect(mine.profileData?["diagnosis"] == .string(SampleJWE.valid))
            #expect(mine.profileData?["plan"] == .string("pro"))

            let stale = try await fixture.admin(
                .put, "/admin/users/user-1/data", token: admin, json: #"{"data": {}}"#)
            #expect(stale.status == .ok, "If-Match is optional")
            let conflict = try await fixture.admin(
                .patch, "/admin/users/user-1/data", token: admin, json: #"{"data": {"age": 1}}"#,
                contentType: ProfileBody.mergePatchType, ifMatch: "\"1\"")
            #expect(conflict.status == .preconditionFailed)
        }
    }

    @Test("administrators' writes are validated like the user's, and an unknown user is 404")
    func userDataRefusals() async throws {
        try await TokenFixture.runAdmin { fixture, admin in
            try await fixture.installProfileSchema()
            let plaintext = try await fixture.admin(
                .patch, "/admin/users/user-1/data", token: admin, json: #"{"data": {"diagnosis": "flu"}}"#,
                contentType: ProfileBody.mergePatchType)
            #expect(plaintext.status == .badRequest)
            #expect(plaintext["field"] == "diagnosis")
            let regex = try await fixture.admin(
                .put, "/admin/users/user-1/data", token: admin, json: #"{"data": {"nickname": "A B"}}"#)
            #expect(regex["field"] == "nickname")
            let missing = try await fixture.admin(.get, "/admin/users/nobody/data", token: admin)
            #expect(missing.status == .notFound)
            #expect(missing.error == "not_found")
            let missingWrite = try await fixture.admin(
                .put, "/admin/users/nobody/data", token: admin, json: #"{"data": {}}"#)
            #expect(missingWrite.status == .notFound)
        }
    }
}
