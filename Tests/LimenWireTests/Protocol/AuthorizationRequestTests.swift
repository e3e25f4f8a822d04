import Foundation
import LimenWire
import Testing

@Suite("Authorization request")
struct AuthorizationRequestTests {
    let endpoint = URL(string: "https://id.example.com/authorize?tenant=a")!
    let callback = URL(string: "http://127.0.0.1:53111/callback")!

    func query(of url: URL) -> [String: String] {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        return Dictionary(FormEncoding.decode(query), uniquingKeysWith: { first, _ in first })
    }

    @Test("carries code, PKCE S256, state, nonce and openid scope first")
    func requiredParameters() {
        let request = AuthorizationRequest(
            clientID: "app", redirectURI: callback, scopes: ["email", "openid", "email"])
        let sent = query(of: request.url(authorizationEndpoint: endpoint))
        #expect(sent["response_type"] == "code")
        #expect(sent["client_id"] == "app")
        #expect(sent["redirect_uri"] == callback.absoluteString)
        #expect(sent["scope"] == "openid email")
        #expect(sent["state"] == request.state)
        #expect(sent["nonce"] == request.nonce)
        #expect(sent["code_challenge"] == request.pkce.challenge)
        #expect(sent["code_challenge_method"] == "S256")
        #expect(sent["tenant"] == "a")
        #expect(sent["code_verifier"] == nil)
    }

    @Test("sends GrabID's optional hints and extra parameters without letting extras override standard ones")
    func optionalParameters() {
        var request = AuthorizationRequest(clientID: "app", redirectURI: callback)
        request.loginHint = "alice@example.com"
        request.idTokenHint = "eyJ.hint"
        request.prompt = ["login", "consent"]
        request.maxAge = 300
        request.acrValues = ["urn:acr:mfa"]
        request.uiLocales = ["fr-CA", "en"]
        request.requestObject = "eyJ.request"
        request.additionalParameters = ["audience": "api", "state": "attacker"]
        let sent = query(of: request.url(authorizationEndpoint: endpoint))
        #expect(sent["login_hint"] == "alice@example.com")
        #expect(sent["id_token_hint"] == "eyJ.hint")
        #expect(sent["prompt"] == "login consent")
        #expect(sent["max_age"] == "300")
        #expect(sent["acr_values"] == "urn:acr:mfa")
        #expect(sent["ui_locales"] == "fr-CA en")
        #expect(sent["request"] == "eyJ.request")
        #expect(sent["audience"] == "api")
        #expect(sent["state"] == request.state)
    }

    @Test("every request gets its own state and nonce")
    func freshSecrets() {
        let first = AuthorizationRequest(clientID: "app", redirectURI: callback)
        let second = AuthorizationRequest(clientID: "app", redirectURI: callback)
        #expect(first.state != second.state)
        #expect(first.nonce != second.nonce)
        #expect(first.pkce.verifier != second.pkce.verifier)
    }
}
