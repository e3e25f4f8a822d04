import Foundation
import LimenOIDC

extension AuthClient {
    /// Reads another app's sign-in that this app, the provider's own (the host), received as a universal link: the
    /// requesting app opened the provider's authorization endpoint, which this app claims, so the person signed in
    /// here can answer it without a browser (GrabID's "Login with Grab app", FAPI 2.0's app-to-app pattern).
    ///
    /// The provider (`POST {issuer}/authorize/app2app`, with this session's access token, refreshed as for every
    /// call) checks the request as its authorization endpoint would and says who asks and for what. This client must
    /// be registered as an app-to-app host (Limen Server: `clients add … --first-party --native --app2app-host`).
    ///
    /// ```swift
    /// .onOpenURL { url in
    ///     Task {
    ///         guard let request = try? await client.appToAppRequest(for: url) else { return }
    ///         await UIApplication.shared.open(try await request.approve())
    ///     }
    /// }
    /// ```
    /// - Parameter url: The link as the app received it: this provider's authorization endpoint with the requesting
    ///   app's query.
    /// - Throws: ``LimenError/appToApp(_:)`` with ``AppToAppError/notAnAuthorizationRequest(_:)`` for a URL that is not
    ///   one (nothing is sent), ``AppToAppError/loginRequired`` when the requesting app asks for a fresh sign-in (sign
    ///   in again here, then call this again), ``AppToAppError/refused(_:)`` for the provider's refusal;
    ///   ``LimenError/notSignedIn`` without a session, ``LimenError/sessionExpired``, the network's errors.
    public func appToAppRequest(for url: URL) async throws(LimenError) -> AppToAppRequest {
        let endpoint = try await metadata().authorizationEndpoint
        let authorization: AppToAppAuthorization
        do throws(AppToAppError) {
            authorization = try AppToAppAuthorization(url: url, authorizationEndpoint: endpoint)
        } catch {
            throw .appToApp(error)
        }
        let document = try await appToAppCall("authorize/app2app", ["request": .string(authorization.query)])
        do throws(AppToAppError) {
            return try AppToAppRequest(
                document: document, redirect: CallbackMatcher(redirectURI: authorization.redirectURI), host: self)
        } catch {
            throw .appToApp(error)
        }
    }

    /// Sends the host's `decision` (`approve` or `deny`) on `request`; returns the redirect the provider made, which
    /// must go to the requesting app's redirect URI.
    func answerAppToApp(_ request: AppToAppRequest, decision: String) async throws(LimenError) -> URL {
        let document = try await appToAppCall(
            "authorize/app2app/approve", ["approval": .string(request.approval), "decision": .string(decision)])
        guard let redirect = document["redirect"]?.stringValue.flatMap({ URL(string: $0) }),
            request.redirect.matches(redirect)
        else { throw .appToApp(.malformedResponse("the redirect does not go to the requesting app's redirect URI")) }
        return redirect
    }

    /// POSTs `body` as JSON to `path` under the issuer with the session's access token; returns the JSON object of a
    /// 2xx answer, throws anything else as ``AppToAppError`` (`401 invalid_token` twice: ``LimenError/sessionExpired``).
    private func appToAppCall(_ path: String, _ body: [String: JSONValue]) async throws(LimenError)
        -> [String: JSONValue]
    {
        let response = try await authorizedRequest(
            HTTPRequest(
                method: "POST", url: configuration.issuer.appendingPathComponent(path),
                headers: ["Content-Type": "application/json", "Accept": "application/json"],
                body: Data(JSONValue.object(body).serialized())))
        guard response.isSuccess else {
            let challenge = BearerChallenge(response.header("WWW-Authenticate"))
            if response.status == 401, challenge?.error == "invalid_token" { throw .sessionExpired }
            throw .appToApp(AppToAppError(response: response, challenge: challenge))
        }
        guard let document = (try? JSONValue(parsing: response.body))?.objectValue else {
            throw .appToApp(.malformedResponse("the answer is not a JSON object"))
        }
        return document
    }
}
