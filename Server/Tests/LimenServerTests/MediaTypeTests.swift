import HTTPTypes
import LimenServerWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Request media types")
struct MediaTypeTests {
    @Test(
        "a Content-Type matches only the media type itself, in any case, with or without parameters",
        arguments: [
            ("application/x-www-form-urlencoded", true),
            ("Application/X-WWW-Form-URLEncoded", true),
            ("application/x-www-form-urlencoded;charset=UTF-8", true),
            ("application/x-www-form-urlencoded ; charset=utf-8", true),
            ("application/x-www-form-urlencodedX", false),
            ("application/x-www-form-urlencoded-but-not", false),
            ("application/x-www-form-urlencoded+json", false),
            ("application/x-www-form", false),
            ("text/plain; application/x-www-form-urlencoded", false),
            ("", false),
        ])
    func formMediaType(_ contentType: String, _ matches: Bool) {
        #expect(MediaType.matches(contentType, FormFields.mediaType) == matches)
    }

    @Test("a missing Content-Type matches nothing")
    func missing() {
        #expect(!MediaType.matches(nil, FormFields.mediaType))
    }

    @Test("a form body whose media type only starts like a form is 415 at the token endpoint")
    func formPrefixRefused() async throws {
        try await TokenFixture.run { fixture in
            for contentType in ["application/x-www-form-urlencodedX", "application/x-www-form-urlencoded-evil"] {
                let response = try await fixture.post(
                    "/token", [("grant_type", "client_credentials")], headers: [.contentType: contentType])
                #expect(response.status == .unsupportedMediaType, "\(contentType)")
            }
            let withCharset = try await fixture.post(
                "/token", [("grant_type", "client_credentials")],
                headers: [.contentType: "application/x-www-form-urlencoded; charset=utf-8"])
            #expect(withCharset.status != .unsupportedMediaType)
        }
    }

    @Test("an admin body whose media type only starts like JSON is 415")
    func jsonPrefixRefused() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let body = #"{"client_id": "x", "redirect_uris": ["https://a.example/cb"]}"#
            let response = try await fixture.admin(
                .post, "/admin/clients", token: token, json: body, contentType: "application/jsonx")
            #expect(response.status == .unsupportedMediaType)
            let withCharset = try await fixture.admin(
                .post, "/admin/clients", token: token, json: body, contentType: "application/json; charset=utf-8")
            #expect(withCharset.status == .created)
        }
    }
}
