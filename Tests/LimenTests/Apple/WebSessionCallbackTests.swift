import Foundation
import Testing

@testable import Limen

@Suite("The web session's callback comes from the redirect URI's scheme")
struct WebSessionCallbackTests {
    @Test(
        "each redirect URI gets its callback, with and without the Callback API",
        arguments: [
            ("com.example.app:/callback", true, WebSessionCallback.customScheme("com.example.app")),
            ("com.example.app:/callback", false, .callbackURLScheme("com.example.app")),
            ("COM.Example.App:/callback", true, .customScheme("com.example.app")),
            ("https://id.example.com/auth/callback", true, .https(host: "id.example.com", path: "/auth/callback")),
            ("https://id.example.com", true, .https(host: "id.example.com", path: "/")),
        ])
    func chosen(redirect: String, hasCallbackAPI: Bool, expected: WebSessionCallback) throws {
        let uri = try #require(URL(string: redirect))
        #expect(WebSessionCallback.choose(for: uri, hasCallbackAPI: hasCallbackAPI) == .success(expected))
    }

    @Test(
        "redirect URIs a web session cannot wait for are refused before any sheet",
        arguments: [
            ("https://id.example.com/callback", false),
            ("http://127.0.0.1:8080/callback", true),
            ("/callback", true),
        ])
    func refused(redirect: String, hasCallbackAPI: Bool) throws {
        let uri = try #require(URL(string: redirect))
        guard case .failure(.presentationFailed) = WebSessionCallback.choose(for: uri, hasCallbackAPI: hasCallbackAPI)
        else {
            Issue.record("\(redirect) was accepted")
            return
        }
    }

    @Test("what the session reports maps to the attempt's result")
    func outcomes() throws {
        let matcher = CallbackMatcher(redirectURI: try #require(URL(string: "com.example.app:/callback")))
        let redirect = try #require(URL(string: "com.example.app:/callback?code=abc&state=xyz"))
        let elsewhere = try #require(URL(string: "com.example.app:/other?code=abc"))
        #expect(
            WebSessionCallback.outcome(callbackURL: redirect, failure: nil, callback: matcher) == .success(redirect))
        #expect(
            WebSessionCallback.outcome(
                callbackURL: nil, failure: (isCancellation: true, description: "closed"), callback: matcher)
                == .failure(.cancelled))
        #expect(
            WebSessionCallback.outcome(
                callbackURL: nil, failure: (isCancellation: false, description: "no anchor"), callback: matcher)
                == .failure(.presentationFailed("no anchor")))
        #expect(
            WebSessionCallback.outcome(callbackURL: nil, failure: nil, callback: matcher)
                == .failure(.presentationFailed("the session ended without a redirect")))
        #expect(
            WebSessionCallback.outcome(callbackURL: elsewhere, failure: nil, callback: matcher)
                == .failure(.presentationFailed("the redirect does not match the redirect URI")))
    }
}
