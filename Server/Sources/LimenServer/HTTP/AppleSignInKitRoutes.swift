import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// The backend contract of AppleSignInKit (an app built on it points its `apiBaseURL` at Limen unchanged), on when
/// the `apple` setting is given:
///
/// - `POST /auth/apple/native` `{"identityToken", "nonce", "authorizationCode", "email"?, "fullName"?}`: the identity
///   token is checked (``AppleIdentityVerifier``); the user its Apple identity (kind `apple`, Apple's `sub`) signs in
///   as is found or made (``ExternalAccounts``: the address only when Apple verified it; `fullName` only for a new
///   user, as Apple sends the name once); a new grant of the client ``AppleSignIn/clientID`` (scope
///   `openid email profile offline_access`) answers `{"success": true, "user": {…}, "accessToken", "refreshToken", "expiresIn"}`.
/// - `POST /auth/refresh` `{"refreshToken"}`: `/token`'s refresh with rotation and reuse detection
///   (``RefreshTokenGrant``) → `{"accessToken", "refreshToken", "expiresIn"}`.
/// - `POST /auth/logout` with a bearer access token: its grant is revoked (the refresh token with it) → 200.
/// - `GET /auth/me` with a bearer access token → `{"user": {…}}`.
///
/// `/auth/logout` and `/auth/me` take only the access tokens of ``AppleSignIn/clientID``; the `user` object shows the
/// address and the name as `/userinfo` would to the same token (``UserInfoClaims``).
/// - `POST /auth/apple/notifications` `{"payload": JWT}`: Apple's server-to-server notifications
///   (``AppleNotification``); `consent-revoked` and `account-delete` end every session of the user of that Apple
///   identity (and forget Apple's refresh token, which Apple invalidated), `email-disabled` and `email-enabled` are logged → `{"success": true}`; a forged one is refused.
///
/// Refusals are ``AppleSignInKitError``s: `401` whenever the app must sign in again.
enum AppleSignInKitRoutes {
    /// The scope of the grants: the `user` object these routes answer shows the address and the name, so the grant
    /// carries the scopes that show them anywhere else (`/userinfo`'s rule).
    static let scope = "openid email profile offline_access"
    /// The path of the native sign-in (rate-limited as the other sign-ins are).
    static let nativePath = "/auth/apple/native"
    /// The route of ``nativePath``, limited per client address like the other sign-ins.
    static let nativeRoute = RouterPath(nativePath)
    /// The path Apple posts its server-to-server notifications to.
    static let notificationsPath = "/auth/apple/notifications"

    static func add(
        to router: Router<some RemoteAddressRequestContext>, service: TokenService, apple: AppleIdentityVerifier
    ) {
        let client = AppleSignIn.client(now: service.now())
        router.post(nativeRoute) { request, context in
            let body = try await AppleSignInKitBody.nativeSignIn(from: request)
            let identity: AppleIdentity
            do throws(AppleIdentityRefusal) {
                identity = try await apple.verify(body.identityToken, rawNonce: body.nonce, fullName: body.fullName)
            } catch .keysUnavailable {
                context.logger.warning("Apple's signing keys could not be fetched")
                throw AppleSignInKitError.appleUnavailable
            } catch {
                context.logger.debug("Sign in with Apple refused", metadata: ["reason": "\(error.code)"])
                throw AppleSignInKitError.invalidIdentityToken
            }
            let redemption: AppleTeamClient.Redemption?
            do throws(AppleTeamError) {
                redemption = try await service.appleAccounts?.redeem(
                    body.authorizationCode, for: identity, logger: context.logger)
            } catch {
                throw AppleSignInKitError.invalidIdentityToken
            }
            let signUp = service.signUpEnabled
            let origin = service.origin(of: request, context: context)
            let user = try await serverErrors {
                try await service.accounts.user(for: identity.external, signUp: signUp, origin: origin)
            }
            guard let user else { throw AppleSignInKitError.signUpDisabled }
            try await serverErrors {
                try await service.appleAccounts?.signedIn(identity, user: user.id, redemption: redemption)
            }
            let tokens = try await serverErrors {
                try await service.tokenIssuer.issueNewGrant(
                    user: user, client: client, scope: scope, authTime: identity.external.authTime, method: .apple,
                    events: service.events, origin: service.origin(of: request, context: context))
            }
            context.logger.info(
                "Signed in with Apple",
                metadata: [
                    "private_relay_email": "\(identity.isPrivateEmail)",
                    "real_user_status": "\(identity.realUserStatus.map { "\($0)" } ?? "absent")",
                ])
            return Responses.json(
                try AppleSignInKitBody.tokens(
                    tokens.body,
                    extra: ["success": .bool(true), "user": AppleSignInKitBody.user(user, scope: Scope(scope))]),
                noStore: true)
        }
        router.post("/auth/refresh") { request, context in
            let refreshToken = try await AppleSignInKitBody.refreshToken(from: request)
            let oauth: JSONValue
            do {
                let form = try FormFields.parse(FormEncoding.encode([("refresh_token", refreshToken)]))
                oauth = try await service.refreshGrant.refresh(
                    TokenRequest(
                        form: form, client: client, logger: context.logger,
                        origin: service.origin(of: request, context: context)))
            } catch TokenEndpointError.serverError {
                throw AppleSignInKitError.serverError
            } catch is TokenEndpointError {
                // Unknown, expired, revoked or reused (then its grant is revoked): all mean signing in again.
                throw AppleSignInKitError.invalidRefreshToken
            } catch {
                throw AppleSignInKitError.serverError
            }
            return Responses.json(try AppleSignInKitBody.tokens(oauth), noStore: true)
        }
        router.post("/auth/logout") { request, context in
            let claims = try await authorized(request, service: service)
            try await serverErrors {
                _ = try await service.store.revokeGrant(id: claims.grantID, at: service.now())
            }
            context.logger.info("Signed out through /auth/logout")
            return Responses.json(.object(["success": .bool(true)]), noStore: true)
        }
        router.post(RouterPath(notificationsPath)) { request, context in
            let payload = try await AppleSignInKitBody.notificationPayload(from: request)
            let notification: AppleNotification
            do throws(AppleIdentityRefusal) {
                notification = try await apple.notification(payload, now: service.now())
            } catch .keysUnavailable {
                context.logger.warning("Apple's signing keys could not be fetched")
                throw AppleSignInKitError.appleUnavailable
            } catch {
                context.logger.notice("An Apple notification was refused", metadata: ["reason": "\(error.code)"])
                throw AppleSignInKitError.invalidNotification
            }
            try await handle(notification, service: service, logger: context.logger)
            return Responses.json(.object(["success": .bool(true)]), noStore: true)
        }
        router.get("/auth/me") { request, _ in
            let claims = try await authorized(request, service: service)
            let user = try await serverErrors { try await service.store.user(id: claims.subject) }
            guard let user else { throw AppleSignInKitError.invalidAccessToken }
            return Responses.json(
                .object(["user": AppleSignInKitBody.user(user, scope: Scope(claims.scope))]), noStore: true)
        }
    }

    /// Acts on a verified notification: the sessions of the user of its Apple identity end on `consent-revoked` and
    /// `account-delete`, and Apple's refresh token for them is forgotten; the relay events are logged (no account keeps the relay's state).
    private static func handle(
        _ notification: AppleNotification,
        service: TokenService,
        logger: Logger
    ) async throws(AppleSignInKitError) {
        let store = service.store
        guard let event = notification.event else {
            logger.debug("An Apple notification of an unknown type was ignored")
            return
        }
        switch event {
        case .consentRevoked, .accountDelete:
            let ended = try await serverErrors {
                guard
                    let user = try await store.user(
                        identityKind: AppleSignIn.identityKind, subject: notification.subject)
                else { return 0 }
                // Apple invalidated its refresh token: nothing to revoke when the account is deleted.
                try await store.forgetAppleRefreshToken(userID: user.id)
                return try await store.revokeGrants(subject: user.id, at: service.now())
            }
            logger.notice(
                "Apple says a user left Sign in with Apple; their sessions ended",
                metadata: ["event": "\(event.rawValue)", "grants_revoked": "\(ended)"])
        case .emailDisabled, .emailEnabled:
            logger.info("Apple's private relay changed for a user", metadata: ["event": "\(event.rawValue)"])
        }
    }

    /// The claims of the request's bearer access token when this provider honours it and issued it to
    /// ``AppleSignIn/clientID``: these routes serve AppleSignInKit's app alone, never another client's tokens.
    private static func authorized(_ request: Request, service: TokenService) async throws -> AccessTokenClaims {
        let result = try await serverErrors {
            try await service.verifier.authorize(PresentedAccessToken(in: request), scope: "openid")
        }
        guard case .success(let claims) = result, claims.clientID == AppleSignIn.clientID else {
            throw AppleSignInKitError.invalidAccessToken
        }
        return claims
    }

    /// What `body` returns; any error it throws is the server's (500).
    private static func serverErrors<Value>(_ body: () async throws -> Value) async throws(AppleSignInKitError)
        -> Value
    {
        do {
            return try await body()
        } catch {
            throw .serverError
        }
    }
}
