import Foundation
import Limen

/// The GrabID migration article's examples, compiled with the tests.
func migratingFromGrabIDSignIn(userAgent: some UserAgent, idToken: String?) async throws {
    // snippet: grabid-sign-in
    // loadLoginSession(): the "Limen" dictionary of the Info.plist (issuer, clientID, redirectURI, scopes)
    let client = AuthClient(configuration: try Configuration(infoDictionary: Bundle.main.infoDictionary ?? [:]))

    // login(loginSession:presentingViewController:), with LoginSession's hint, idTokenHint, prompt and acrValues;
    // on iOS the user agent is LimenApple's WebAuthenticationSessionUserAgent. There is no exchangeToken(url:) or
    // loginCompleted(): signIn returns once the redirect is checked (state, iss) and the code redeemed with PKCE.
    let user = try await client.signIn(
        using: userAgent,
        options: SignInOptions(
            loginHint: "ada@example.com", idTokenHint: idToken, prompt: ["consent"], acrValues: ["urn:example:mfa"]))
    print(user.id ?? "", user.email ?? "")
    // end snippet
}

/// The ID token's information and the two validity checks.
func migratingFromGrabIDTokenInfo(client: AuthClient) async throws {
    // snippet: grabid-token-info
    // getIdTokenInfo(loginSession:): read from the stored session, without the network
    if let info = await client.idTokenInfo() {
        print(info.claims.issuer, info.claims.audience, info.claims.expiresAt, info.claims.nonce ?? "")
        // isValidIdToken(idTokenInfo:): by time, issuer and audience; it was verified when it arrived
        if !client.isValidIdToken(info) {
            print("sign in again for a new ID token")
        }
    }
    // isValidAccessToken(loginSession:): by the lifetime the provider gave it
    if await client.isValidAccessToken() {
        print("the stored access token has not expired")
    }
    // to call an API: a token refreshed first when it is about to expire (loginSession.accessToken)
    if let token = try await client.validAccessToken() {
        print("Authorization: Bearer \(token.prefix(8))…")
    }
    // end snippet
}

/// Signing out, and telling errors apart.
func migratingFromGrabIDErrors(client: AuthClient, userAgent: some UserAgent) async {
    // snippet: grabid-errors
    do {
        try await client.signIn(using: userAgent)
    } catch .userCancelled {
        print("the person closed the page")
    } catch .network(let problem) {
        print("offline or the service is down; try again:", problem)  // network, serviceUnavailable
    } catch .oauth(let refusal) {
        print("the provider refused:", refusal.error.rawValue)  // invalidClientId, invalidScope, unAuthorized, …
    } catch {
        print(error.code, error.errorDescription ?? "")  // a stable code, and a message for people
    }

    // logout(loginSession:): also revokes the tokens at the provider
    let result = await client.signOut(revoke: true)
    if let problem = result.revocationError {
        print("signed out on the device; the provider was not told:", problem.code)
    }
    // end snippet
}
