import Foundation
import LimenOIDC

/// Why the host app could not answer another app's sign-in (as ``LimenError/appToApp(_:)``): the refusals of
/// ``AuthClient/appToAppRequest(for:)``, ``AppToAppRequest/approve()`` and ``AppToAppRequest/deny()``.
///
/// Nobody signed in on the host is ``LimenError/notSignedIn``, a session the provider no longer honours
/// ``LimenError/sessionExpired``, and no answer at all a ``LimenError/network(_:)`` error, as for every other call.
///
/// ```swift
/// do {
///     let request = try await client.appToAppRequest(for: url)
///     await open(try await request.approve())
/// } catch .appToApp(.loginRequired) {
///     // the requesting app asked for a fresh sign-in: sign in again, then call appToAppRequest(for:) once more
/// } catch .appToApp(.notAnAuthorizationRequest) {
///     // not a sign-in for this app to answer: handle the link as any other
/// }
/// ```
public enum AppToAppError: Error, Sendable, Equatable {
    /// The URL is not an authorization request to this client's provider: another host, another path than its
    /// authorization endpoint, or a query without `client_id` or `redirect_uri`. Nothing was sent.
    case notAnAuthorizationRequest(String)
    /// The requesting app asked for a sign-in the host's session cannot vouch for (`prompt=login`, or a `max_age`
    /// shorter than the host's sign-in is old; `409 login_required`): sign the person in again on the host, then ask
    /// again.
    case loginRequired
    /// The approval is unknown, already used, expired or made for another user (`400 invalid_grant`): ask again
    /// with ``AuthClient/appToAppRequest(for:)``.
    case approvalExpired
    /// The provider refused with an OAuth error (`400`, `401` or `403`): the requesting client or its request is
    /// not valid (`invalid_request`, `invalid_client`), or this app may not answer for others (`insufficient_scope`,
    /// `unauthorized_client`: not a client registered as an app-to-app host).
    case refused(OAuthError)
    /// The provider answered with an unexpected status and no OAuth error.
    case server(status: Int)
    /// The provider's answer is not of the documented shape.
    case malformedResponse(String)

    /// A stable, machine-readable identifier such as `app_to_app.login_required`.
    public var code: String {
        switch self {
        case .notAnAuthorizationRequest: "app_to_app.not_an_authorization_request"
        case .loginRequired: "app_to_app.login_required"
        case .approvalExpired: "app_to_app.approval_expired"
        case .refused: "app_to_app.refused"
        case .server: "app_to_app.server_error"
        case .malformedResponse: "app_to_app.malformed_response"
        }
    }

    /// Whether repeating the call later may succeed without any change: a server error (5xx), or a refusal that says
    /// so (`temporarily_unavailable`, `server_error`).
    public var isRetryable: Bool {
        switch self {
        case .server(let status): status >= 500
        case .refused(let error): error.isRetryable
        default: false
        }
    }

    /// Whether the person has to sign in again on the host before the call can succeed.
    public var requiresReauthentication: Bool {
        self == .loginRequired
    }

    /// The error a non-2xx `response` of an app-to-app endpoint means, by its Bearer `challenge` or its OAuth error
    /// body.
    init(response: HTTPResponse, challenge: BearerChallenge?) {
        let error =
            OAuthError.fromErrorBody(response.body, httpStatus: response.status)
            ?? challenge?.error.map { code in
                OAuthError(
                    error: .init(rawValue: code), errorDescription: challenge?.parameters["error_description"],
                    httpStatus: response.status)
            }
        guard let error else {
            self = .server(status: response.status)
            return
        }
        switch (response.status, error.error) {
        case (409, .loginRequired): self = .loginRequired
        case (400, .invalidGrant): self = .approvalExpired
        case (400, _), (401, _), (403, _): self = .refused(error)
        default: self = .server(status: response.status)
        }
    }
}

extension AppToAppError: LocalizedError {
    /// A human-readable description.
    public var errorDescription: String? {
        switch self {
        case .notAnAuthorizationRequest(let reason): "This link is not a sign-in request for this app: \(reason)."
        case .loginRequired: "The requesting app asks for a fresh sign-in: sign in again, then answer it."
        case .approvalExpired: "This sign-in request was answered already or has expired; ask again."
        case .refused(let error): "The provider refused the app-to-app sign-in: \(error.localizedDescription)"
        case .server(let status): "The provider answered \(status)."
        case .malformedResponse(let reason): "The provider's app-to-app answer is malformed: \(reason)"
        }
    }
}
