import Foundation
import LimenOIDC
import TestSupport
import Testing

@Suite("UserInfo and end-session")
struct UserInfoAndLogoutTests {
    @Test("UserInfo sends the bearer token and returns the claims")
    func userInfo() async throws {
        try await TestHTTPServer.withServer([
            "GET /userinfo": { _ in .json(#"{"sub":"alice","email":"a@example.com","email_verified":"true"}"#) }
        ]) { server async throws in
            let info = try await UserInfo.fetch(
                from: server.url("userinfo"),
                accessToken: "at-1",
                expectedSubject: "alice",
                transport: URLSessionTransport()
            )
            #expect(info.email == "a@example.com")
            #expect(info.emailVerified == true)
            #expect(await server.log.requests.first?.header("Authorization") == "Bearer at-1")
        }
    }

    @Test("a UserInfo response for another subject is refused (OpenID Connect Core §5.3.2)")
    func subjectMismatch() async throws {
        _ = try await TestHTTPServer.withServer(["GET /userinfo": { _ in .json(#"{"sub":"mallory"}"#) }]) {
            server async throws in
            await #expect(throws: OIDCError.userInfoSubjectMismatch(expected: "alice", actual: "mallory")) {
                try await UserInfo.fetch(
                    from: server.url("userinfo"),
                    accessToken: "at-1",
                    expectedSubject: "alice",
                    transport: URLSessionTransport()
                )
            }
        }
    }

    @Test("a UserInfo response without sub is invalid")
    func missingSubject() async throws {
        _ = try await TestHTTPServer.withServer(["GET /userinfo": { _ in .json(#"{"email":"a@example.com"}"#) }]) {
            server async throws in
            await #expect(throws: OIDCError.invalidResponse(endpoint: "userinfo", reason: "missing sub")) {
                try await UserInfo.fetch(
                    from: server.url("userinfo"),
                    accessToken: "at-1",
                    expectedSubject: "alice",
                    transport: URLSessionTransport()
                )
            }
        }
    }

    @Test("the end-session URL carries id_token_hint, the post-logout redirect and state")
    func endSessionURL() throws {
        let request = EndSessionRequest(
            idTokenHint: "eyJ.id",
            postLogoutRedirectURI: URL(string: "https://app.example.com/bye"),
            state: "s-1",
            clientID: "app"
        )
        let url = request.url(endSessionEndpoint: URL(string: "https://id.example.com/logout?x=1")!)
        let query = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        let fields = Dictionary(FormEncoding.decode(query), uniquingKeysWith: { first, _ in first })
        #expect(
            fields == [
                "x": "1", "id_token_hint": "eyJ.id", "post_logout_redirect_uri": "https://app.example.com/bye",
                "state": "s-1", "client_id": "app",
            ])
    }

    @Test("state is left out when there is no post-logout redirect to echo it to")
    func endSessionWithoutRedirect() {
        let url = EndSessionRequest(idTokenHint: "eyJ.id", state: "s-1").url(
            endSessionEndpoint: URL(string: "https://id.example.com/logout")!)
        #expect(url.absoluteString == "https://id.example.com/logout?id_token_hint=eyJ.id")
    }
}
