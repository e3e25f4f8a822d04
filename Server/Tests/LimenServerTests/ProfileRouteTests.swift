import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("GET /v1/app and GET, PUT, PATCH /v1/me/data")
struct ProfileRouteTests {
    @Test("GET /v1/app publishes the schema and whether encryption is enabled")
    func app() async throws {
        try await TokenFixture.run { fixture in
            let none = try await fixture.get("/v1/app")
            #expect(none.status == .ok)
            #expect(
                none.json == [
                    "schema": .object(["fields": .object([:])]), "encryption": .object(["enabled": .bool(false)]),
                ])
            try await fixture.installProfileSchema()
            let app = try await fixture.get("/v1/app")
            #expect(app.json["encryption"] == .object(["enabled": .bool(true)]))
            let fields = try #require(app.json["schema"]?.objectValue?["fields"]?.objectValue)
            #expect(fields.count == 12)
            #expect(
                fields["nickname"]
                    == .object([
                        "type": .string("string"), "display_name": .string("Nickname"), "required": .bool(false),
                        "user_editable": .bool(true), "encrypted": .bool(false),
                        "validation": .object(["regex": .string("^[a-z]+$"), "min": .number(2), "max": .number(10)]),
                    ]))
        }
    }

    @Test(
        "a profile starts empty, is replaced by PUT, and every answer carries the ETag of its revision",
        arguments: TokenBackend.allCases)
    func readAndReplace(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            try await fixture.installProfileSchema()
            let token = try await fixture.accessToken()
            let empty = try await fixture.profileRequest(.get, token: token)
            #expect(empty.status == .ok)
            #expect(empty.json == ["data": .object([:])])
            #expect(empty.headers[.eTag] == "\"0\"")
            #expect(empty.headers[.cacheControl] == "no-store")
            let put = try await fixture.profileRequest(
                .put, token: token,
                json: #"{"data": {"nickname": "ada", "age": 36, "diagnosis": "\#(SampleJWE.valid)"}}"#,
                ifMatch: "\"0\"")
            #expect(put.status == .ok, "\(put.text)")
            #expect(put.headers[.eTag] == "\"1\"")
            #expect(
                put.profileData == [
                    "nickname": .string("ada"), "age": .number(36), "diagnosis": .string(SampleJWE.valid),
                ])
            let read = try await fixture.profileRequest(.get, token: token)
            #expect(read.profileData == put.profileData)
            #expect(read.headers[.eTag] == "\"1\"")
            for tag in ["\"1\"", "W/\"1\"", "\"0\", \"1\"", "*"] {
                let cached = try await fixture.profileRequest(.get, token: token, ifNoneMatch: tag)
                #expect(cached.status == .notModified, "\(tag)")
                #expect(cached.headers[.eTag] == "\"1\"")
                #expect(cached.body.isEmpty)
            }
            let stale = try await fixture.profileRequest(.get, token: token, ifNoneMatch: "\"0\"")
            #expect(stale.status == .ok)
            let replaced = try await fixture.profileRequest(
                .put, token: token, json: #"{"data": {"age": 37, "tags": null}}"#)
            #expect(replaced.profileData == ["age": .number(37)], "PUT replaces; null is no value")
            #expect(replaced.headers[.eTag] == "\"2\"")
        }
    }

    @Test(
        "two writers with the same ETag: the first wins, the second gets 412 and succeeds with the new ETag",
        arguments: TokenBackend.allCases)
    func concurrentWriters(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            try await fixture.installProfileSchema()
            let first = try await fixture.accessToken()
            let second = try await fixture.accessToken()
            let etag = try #require(try await fixture.profileRequest(.get, token: first).headers[.eTag])
            let won = try await fixture.profileRequest(
                .patch, token: first, json: #"{"data": {"nickname": "ada"}}"#, ifMatch: etag)
            #expect(won.status == .ok)
            let lost = try await fixture.profileRequest(
                .patch, token: second, json: #"{"data": {"age": 36}}"#, ifMatch: etag)
            #expect(lost.status == .preconditionFailed)
            #expect(lost.error == "precondition_failed")
            let current = try await fixture.profileRequest(.get, token: second)
            #expect(current.profileData == ["nickname": .string("ada")], "the refused write changed nothing")
            let retried = try await fixture.profileRequest(
                .patch, token: second, json: #"{"data": {"age": 36}}"#, ifMatch: current.headers[.eTag])
            #expect(retried.status == .ok)
            #expect(retried.profileData == ["nickname": .string("ada"), "age": .number(36)])
            let weak = try await fixture.profileRequest(
                .patch, token: second, json: #"{"data": {"age": 1}}"#, ifMatch: "W/\(retried.headers[.eTag] ?? "")")
            #expect(weak.status == .preconditionFailed, "If-Match compares strongly: a weak tag never matches")
            let listed = try await fixture.profileRequest(
                .patch, token: second, json: #"{"data": {"age": 2}}"#,
                ifMatch: "\"99\", \(retried.headers[.eTag] ?? "")")
            #expect(listed.status == .ok)
            let any = try await fixture.profileRequest(
                .patch, token: second, json: #"{"data": {"age": 3}}"#, ifMatch: "*")
            #expect(any.status == .ok)
        }
    }

    @Test("of 16 merge patches without If-Match sent at once to one profile, every one is applied")
    func concurrentPatches() async throws {
        let count = 16
        try await TokenFixture.run { fixture in
            try await fixture.installProfileSchema()
            let token = try await fixture.accessToken()
            let statuses = try await withThrowingTaskGroup(of: HTTPTypes.HTTPResponse.Status.self) { group in
                for index in 0..<count {
                    group.addTask {
                        try await fixture.profileRequest(
                            .patch, token: token, json: #"{"data": {"address": {"k\#(index)": "v"}}}"#
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")
            let stored = try await fixture.provider.store.profile(userID: TokenFixture.user.id)
            #expect(stored?.revision == count)
            #expect(stored?.data["address"]?.objectValue?.count == count)
        }
    }

    @Test("PATCH is a merge patch: null removes a member, nested objects merge, arrays and values replace")
    func mergePatch() async throws {
        try await TokenFixture.run { fixture in
            try await fixture.installProfileSchema()
            let token = try await fixture.accessToken()
            _ = try await fixture.profileRequest(
                .put, token: token,
                json:
                    #"{"data": {"nickname": "ada", "address": {"city": "London", "street": "St James's Square"}, "tags": ["a", "b"]}}"#
            )
            let patched = try await fixture.profileRequest(
                .patch, token: token,
                json:
                    #"{"data": {"nickname": null, "address": {"street": null, "postcode": "SW1"}, "tags": ["c"], "age": 36}}"#
            )
            #expect(patched.status == .ok, "\(patched.text)")
            #expect(
                patched.profileData
                    == [
                        "address": .object(["city": .string("London"), "postcode": .string("SW1")]),
                        "tags": .array([.string("c")]), "age": .number(36),
                    ])
            let cleared = try await fixture.profileRequest(.patch, token: token, json: #"{"data": null}"#)
            #expect(cleared.profileData == [:])
        }
    }

    @Test(
        "a refused write is 400 JSON naming the field, and changes nothing",
        arguments: [
            (#"{"data": {"colour": "red"}}"#, "colour"),
            (#"{"data": {"nickname": 3}}"#, "nickname"),
            (#"{"data": {"nickname": "Ada"}}"#, "nickname"),
            (#"{"data": {"age": 151}}"#, "age"),
            (#"{"data": {"plan": "pro"}}"#, "plan"),
            (#"{"data": {"diagnosis": "flu"}}"#, "diagnosis"),
            (#"{"data": {"diagnosis": "a.b.c.d.e"}}"#, "diagnosis"),
            (#"{"data": {"birthdate": "yesterday"}}"#, "birthdate"),
        ]
    )
    func refusals(json: String, field: String) async throws {
        try await TokenFixture.run { fixture in
            try await fixture.installProfileSchema()
            let token = try await fixture.accessToken()
            for method in [HTTPTypes.HTTPRequest.Method.put, .patch] {
                let response = try await fixture.profileRequest(method, token: token, json: json)
                #expect(response.status == .badRequest)
                #expect(response.error == "invalid_profile")
                #expect(response["field"] == field)
                #expect(response["error_description"]?.hasPrefix("\(field): ") == true)
            }
            let unchanged = try await fixture.profileRequest(.get, token: token)
            #expect(unchanged.headers[.eTag] == "\"0\"")
        }
    }

    @Test("a field the user may not edit keeps its value through the user's PUT, which need not repeat it")
    func notEditableKept() async throws {
        try await TokenFixture.runAdmin { fixture, admin in
            try await fixture.installProfileSchema()
            let token = try await fixture.accessToken()
            let set = try await fixture.admin(
                .patch, "/admin/users/user-1/data", token: admin, json: #"{"data": {"plan": "pro"}}"#,
                contentType: ProfileBody.mergePatchType)
            #expect(set.status == .ok, "\(set.text)")
            let put = try await fixture.profileRequest(.put, token: token, json: #"{"data": {"age": 3}}"#)
            #expect(put.profileData == ["plan": .string("pro"), "age": .number(3)])
            let same = try await fixture.profileRequest(.put, token: token, json: #"{"data": {"plan": "pro"}}"#)
            #expect(same.status == .ok, "repeating the value unchanged is no edit")
            let removal = try await fixture.profileRequest(.patch, token: token, json: #"{"data": {"plan": null}}"#)
            #expect(removal["field"] == "plan")
        }
    }

    @Test(
        "a malformed body, the wrong media type or an oversized body is refused with JSON, never 500",
        arguments: [
            (
                HTTPTypes.HTTPRequest.Method.put, "not json", nil, HTTPTypes.HTTPResponse.Status.badRequest,
                "invalid_request"
            ),
            (.put, #"{"nickname": "ada"}"#, nil, .badRequest, "invalid_request"),
            (.put, #"{"data": []}"#, nil, .badRequest, "invalid_request"),
            (.put, #"{"data": {"age": 1, "age": 2}}"#, nil, .badRequest, "invalid_request"),
            (.patch, #"["data"]"#, nil, .badRequest, "invalid_request"),
            (.patch, #"{"nickname": "ada"}"#, nil, .badRequest, "invalid_request"),
            (.patch, #"{"data": {"age": 1}}"#, "application/json", .unsupportedMediaType, "unsupported_media_type"),
            (
                .put, #"{"data": {"age": 1}}"#, "application/merge-patch+json", .unsupportedMediaType,
                "unsupported_media_type"
            ),
            (.put, #"{"data": {"age": 1}}"#, "text/plain", .unsupportedMediaType, "unsupported_media_type"),
            (.put, #"{"data": {"address": {"x": ""#, nil, .badRequest, "invalid_request"),
        ] as [(HTTPTypes.HTTPRequest.Method, String, String?, HTTPTypes.HTTPResponse.Status, String)]
    )
    func malformed(
        method: HTTPTypes.HTTPRequest.Method, json: String, contentType: String?, status: HTTPTypes.HTTPResponse.Status,
        error: String
    ) async throws {
        try await TokenFixture.run { fixture in
            try await fixture.installProfileSchema()
            let token = try await fixture.accessToken()
            let response = try await fixture.profileRequest(method, token: token, json: json, contentType: contentType)
            #expect(response.status == status)
            #expect(response.error == error)
            if method == .patch, status == .unsupportedMediaType {
                #expect(response.headers[HTTPField.Name("Accept-Patch")!] == "application/merge-patch+json")
            }
        }
    }

    @Test("a body over 64 KiB is 413 JSON; a profile that would grow past 64 KiB is 413 too")
    func oversized() async throws {
        try await TokenFixture.run { fixture in
            try await fixture.installProfileSchema()
            let token = try await fixture.accessToken()
            let huge = String(repeating: "a", count: ProfileLimits.maximumDocumentSize)
            let body = try await fixture.profileRequest(
                .put, token: token, json: #"{"data": {"nickname": "\#(huge)"}}"#)
            #expect(body.status == .contentTooLarge)
            #expect(body.error == "request_too_large")
            let overField = String(repeating: "b", count: ProfileLimits.maximumFieldSize)
            let field = try await fixture.profileRequest(
                .patch, token: token, json: #"{"data": {"given_name": "\#(overField)"}}"#)
            #expect(field.status == .badRequest)
            #expect(field["field"] == "given_name")
            let chunk = String(repeating: "b", count: 15 * 1024)
            let fields = ["address", "tags", "given_name", "picture", "name"].map { key in
                switch key {
                case "tags": #""tags": ["\#(chunk)"]"#
                case "address": #""address": {"a": "\#(chunk)"}"#
                case "picture": #""picture": "https://example.com/\#(chunk)""#
                default: #""\#(key)": "\#(chunk)""#
                }
            }
            // Each value is under the field cap, but together over the document cap: sent in two patches.
            let first = try await fixture.profileRequest(
                .patch, token: token, json: #"{"data": {\#(fields.prefix(3).joined(separator: ","))}}"#)
            #expect(first.status == .ok, "\(first.text)")
            let second = try await fixture.profileRequest(
                .patch, token: token, json: #"{"data": {\#(fields.suffix(2).joined(separator: ","))}}"#)
            #expect(second.status == .contentTooLarge)
            #expect(second.error == "request_too_large")
        }
    }

    @Test("no token, an invalid token or one without the profile scope is refused with a Bearer challenge")
    func bearer() async throws {
        try await TokenFixture.run { fixture in
            try await fixture.installProfileSchema()
            let missing = try await fixture.profileRequest(.get, token: nil)
            #expect(missing.status == .unauthorized)
            #expect(missing.headers[.wwwAuthenticate] == "Bearer realm=\"limen\"")
            let invalid = try await fixture.profileRequest(.get, token: "not.a.token")
            #expect(invalid.status == .unauthorized)
            #expect(invalid.headers[.wwwAuthenticate]?.contains("error=\"invalid_token\"") == true)
            let noProfile = try await fixture.accessToken(scope: "openid email")
            for method in [HTTPTypes.HTTPRequest.Method.get, .put, .patch] {
                let refused = try await fixture.profileRequest(
                    method, token: noProfile, json: method == .get ? nil : #"{"data": {"age": 1}}"#)
                #expect(refused.status == .forbidden)
                #expect(
                    refused.headers[.wwwAuthenticate]
                        == "Bearer realm=\"limen\", error=\"insufficient_scope\", scope=\"profile\"")
            }
            let unchanged = try await fixture.profileRequest(.get, token: try await fixture.accessToken())
            #expect(unchanged.headers[.eTag] == "\"0\"")
        }
    }

    @Test(
        "finding 12: picture, website and profile are https URLs: javascript: is refused when written, never a claim",
        arguments: ["picture", "website", "profile"])
    func urlClaims(name: String) async throws {
        try await TokenFixture.run { fixture in
            try await fixture.installProfileSchema(#"{"fields": {"\#(name)": {"type": "string"}}}"#)
            let token = try await fixture.accessToken()
            for hostile in ["javascript:alert(1)", "http://example.com/a", "data:text/html,x", "//example.com/a"] {
                let refused = try await fixture.profileRequest(
                    .put, token: token, json: #"{"data": {"\#(name)": "\#(hostile)"}}"#)
                #expect(refused.status == .badRequest, "\(hostile)")
                #expect(refused["error_description"]?.hasPrefix("\(name): ") == true, "\(refused.text)")
            }
            let accepted = try await fixture.profileRequest(
                .put, token: token, json: #"{"data": {"\#(name)": "https://example.com/ada"}}"#)
            #expect(accepted.status == .ok, "\(accepted.text)")
            #expect(try await fixture.userInfo(token).json[name] == .string("https://example.com/ada"))

            let stored = try await fixture.provider.store.writeProfile(
                userID: TokenFixture.user.id, data: [name: .string("javascript:alert(1)")], expectedRevision: 1,
                now: fixture.clock.now)
            #expect(stored == 2)
            #expect(try await fixture.userInfo(token).json[name] == nil)
            let idToken = try UnverifiedJWT(try #require(try await fixture.signIn()["id_token"])).claims
            #expect(idToken[name] == nil)
        }
    }

    @Test(
        "userinfo and the ID token carry the profile's standard claims with the profile scope only, never encrypted ones"
    )
    func claims() async throws {
        try await TokenFixture.run { fixture in
            try await fixture.installProfileSchema()
            let token = try await fixture.accessToken()
            let written = try await fixture.profileRequest(
                .put, token: token,
                json:
                    #"{"data": {"given_name": "Ada", "picture": "https://example.com/ada.png", "nickname": "ada", "age": 36, "locale": "\#(SampleJWE.valid)"}}"#
            )
            #expect(written.status == .ok, "\(written.text)")
            let profileClaims: [String: JSONValue] = [
                "given_name": .string("Ada"), "picture": .string("https://example.com/ada.png"),
                "nickname": .string("ada"), "name": .string("Ada"),
                "updated_at": .number(fixture.clock.now.timeIntervalSince1970.rounded(.down)),
            ]
            let userInfo = try await fixture.userInfo(token)
            #expect(
                userInfo.json.filter { !["sub", "email", "email_verified", "auth_level"].contains($0.key) }
                    == profileClaims)
            let tokens = try await fixture.signIn()
            let idToken = try UnverifiedJWT(try #require(tokens["id_token"])).claims
            for (name, value) in profileClaims { #expect(idToken[name] == value, "\(name)") }
            #expect(idToken["locale"] == nil, "an encrypted field is never a claim")
            #expect(idToken["age"] == nil, "only standard claims")

            let emailOnly = try await fixture.signIn(scope: "openid email")
            let emailClaims = try UnverifiedJWT(try #require(emailOnly["id_token"])).claims
            #expect(emailClaims["given_name"] == nil)
            #expect(emailClaims["updated_at"] == nil)
            let emailInfo = try await fixture.userInfo(try #require(emailOnly["access_token"]))
            #expect(emailInfo.json["picture"] == nil)

            _ = try await fixture.profileRequest(
                .patch, token: token, json: #"{"data": {"name": "Countess of Lovelace"}}"#)
            #expect(
                try await fixture.userInfo(token).json["name"] == .string("Countess of Lovelace"),
                "the profile's name wins")
        }
    }
}
