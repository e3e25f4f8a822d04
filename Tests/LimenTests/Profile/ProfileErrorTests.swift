import Foundation
import Limen
import Testing

@Suite("Profile refusals read from the server's answers")
struct ProfileErrorTests {
    static func answer(_ status: Int, _ json: String = "", headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: Data(json.utf8))
    }

    @Test(
        "each status and error code of /v1/me/data becomes its typed case",
        arguments: [
            (
                answer(
                    400, #"{"error":"invalid_profile","error_description":"age: must be at least 0","field":"age"}"#),
                ProfileError.invalidField(field: "age", reason: "must be at least 0")
            ),
            (
                answer(400, #"{"error":"invalid_request","error_description":"the body is not valid JSON"}"#),
                .invalidRequest("the body is not valid JSON")
            ),
            (
                answer(403, headers: ["WWW-Authenticate": #"Bearer error="insufficient_scope", scope="profile""#]),
                .insufficientScope
            ),
            (answer(404), .unsupported),
            (answer(413, #"{"error":"request_too_large"}"#), .tooLarge),
            (answer(500, #"{"error":"server_error"}"#), .server(status: 500, code: "server_error")),
            (answer(502, "<html>bad gateway</html>"), .server(status: 502, code: nil)),
        ])
    func mapping(response: HTTPResponse, expected: ProfileError) {
        #expect(ProfileError(response: response) == expected)
    }

    @Test("only a server error is retryable; codes are stable")
    func retryable() {
        #expect(ProfileError.server(status: 503, code: nil).isRetryable)
        #expect(!ProfileError.server(status: 401, code: nil).isRetryable)
        #expect(!ProfileError.conflict(fields: ["nickname"]).isRetryable)
        #expect(LimenError.profile(.conflict(fields: [])).code == "profile.conflict")
        #expect(LimenError.profile(.invalidField(field: "age", reason: "")).code == "profile.invalid_field")
    }
}
