import Foundation
import LimenOIDC
import Logging

extension AuthClient {
    /// Signs in with the authorization code flow and PKCE through a user agent (browser, web authentication
    /// session, or a test driver).
    /// - Parameters:
    ///   - userAgent: Shows the provider's page and returns the redirect.
    ///   - redirectURI: The redirect URI to use; defaults to the configuration's. A `LoopbackUserAgent` (LimenLoopback) passes
    ///     its own.
    ///   - options: Hints and prompts for this sign-in.
    /// - Returns: The signed-in user.
    @discardableResult
    public func signIn(
        using userAgent: some UserAgent,
        redirectURI: URL? = nil,
        options: SignInOptions = SignInOptions()
    ) async throws(LimenError) -> AuthState.User {
        try await performSignIn(method: .authorizationCode) { () async throws(LimenError) -> TokenSet in
            guard let redirect = redirectURI ?? configuration.redirectURI else {
                throw .configuration(.missingKey("redirectURI"))
            }
            let metadata = try await metadata()
            let request = try await authorizationRequest(redirectURI: redirect, options: options)
            let callback: URL
            do throws(UserAgentError) {
                callback = try await userAgent.authorize(
                    url: request.url(authorizationEndpoint: metadata.authorizationEndpoint),
                    callback: CallbackMatcher(redirectURI: redirect)
                )
            } catch {
                throw LimenError(error)
            }
            let code = try await authorizationCode(of: callback, answering: request)
            let tokens = try await tokenClient()
            let response = try await LimenError.mapping { () async throws(OIDCError) in
                try await tokens.exchangeCode(code, redirectURI: redirect, codeVerifier: request.pkce.verifier)
            }
            return try await tokenSet(
                from: response,
                nonce: request.nonce,
                maxAge: options.maxAge.map(TimeInterval.init)
            )
        }
    }

    /// The code of the redirect `callback` that answers `request`: its `state` compared in constant time, its `iss`
    /// checked against the discovered issuer (and required when the provider advertises
    /// `authorization_response_iss_parameter_supported`).
    /// - Throws: ``LimenError/oauth(_:)`` when the redirect carries an OAuth error (after `state` and `iss` passed),
    ///   ``LimenError/protocolViolation(_:)`` for a refused redirect.
    func authorizationCode(of callback: URL, answering request: AuthorizationRequest) async throws(LimenError)
        -> String
    {
        let metadata = try await metadata()
        return try await LimenError.mapping { () throws(OIDCError) -> String in
            try AuthorizationResponse(
                url: callback,
                for: request,
                issuer: metadata.issuer,
                issuerParameterRequired: metadata.authorizationResponseIssParameterSupported == true
            ).code
        }
    }

    /// Signs in with the device authorization grant (RFC 8628): for TVs, CLIs and devices without a browser.
    /// - Parameters:
    ///   - scopes: Scopes to request; `nil` uses the configuration's.
    ///   - showCode: Called once with the user code and verification URI to show the user.
    @discardableResult
    public func signInWithDeviceCode(
        scopes: [String]? = nil,
        showCode: @Sendable (DeviceAuthorization) async -> Void
    ) async throws(LimenError) -> AuthState.User {
        try await performSignIn(method: .deviceCode) { () async throws(LimenError) -> TokenSet in
            let tokens = try await tokenClient()
            let requested = scopes ?? configuration.scopes
            let authorization = try await LimenError.mapping { () async throws(OIDCError) in
                try await tokens.authorizeDevice(scopes: requested)
            }
            await showCode(authorization)
            let response = try await LimenError.mapping { () async throws(OIDCError) in
                try await tokens.pollDeviceToken(authorization, now: configuration.now, clock: configuration.clock)
            }
            return try await tokenSet(from: response, nonce: nil, maxAge: nil)
        }
    }

    /// Runs a sign-in: state and events around `body`, which produces the validated token set.
    func performSignIn(
        method: SignInMethod,
        userType: UserType = .unknown,
        _ body: () async throws(LimenError) -> TokenSet
    ) async throws(LimenError) -> AuthState.User {
        try await ensureRestored()
        let before = state
        logger.debug("sign-in started", metadata: ["method": "\(method.rawValue)"])
        events.emit(.signInStarted(method: method))
        stateStore.update { $0.phase = .signingIn }
        do throws(LimenError) {
            let next = try await body()
            generation += 1
            try await adopt(next)
            await profiles.createEncryptionKeyIfEnabled()
            logger.info(
                "signed in",
                metadata: [
                    "method": "\(method.rawValue)", "subject": "\(next.subject)",
                    "access_token": "\(Redaction.fingerprint(next.accessToken))",
                ]
            )
            events.emit(.signInCompleted(method: method, userType: userType))
            return state.user
        } catch {
            stateStore.update { $0 = before }
            logger.info("sign-in failed", metadata: ["method": "\(method.rawValue)", "code": "\(error.code)"])
            events.emit(.signInFailed(reason: error))
            throw error
        }
    }

    /// The authorization request for a sign-in; with ``Configuration/dpop``, its code bound to the DPoP key that will
    /// redeem it (`dpop_jkt`).
    func authorizationRequest(redirectURI: URL, options: SignInOptions) async throws(LimenError)
        -> AuthorizationRequest
    {
        var request = AuthorizationRequest(
            clientID: configuration.clientID,
            redirectURI: redirectURI,
            scopes: options.scopes ?? configuration.scopes
        )
        request.loginHint = options.loginHint
        request.idTokenHint = options.idTokenHint
        request.prompt = options.prompt
        request.maxAge = options.maxAge
        request.acrValues = options.acrValues
        request.uiLocales = options.uiLocales
        request.additionalParameters = options.additionalParameters
        if let provider = options.identityProvider { request.additionalParameters["idp_hint"] = provider }
        request.dpopJKT = try await dpopBinding()?.maker.thumbprint
        return request
    }

    /// Validates a sign-in's token response and makes the token set.
    func tokenSet(from response: TokenResponse, nonce: String?, maxAge: TimeInterval?) async throws(LimenError)
        -> TokenSet
    {
        guard let idToken = response.idToken else {
            throw .protocolViolation(.invalidResponse(endpoint: "token", reason: "missing id_token"))
        }
        let claims = try await validateIDToken(idToken, nonce: nonce, maxAge: maxAge, accessToken: response.accessToken)
        return TokenSet(
            accessToken: response.accessToken,
            refreshToken: response.refreshToken,
            idToken: idToken,
            expiresAt: response.expiresAt(receivedAt: configuration.now()),
            scope: response.scope,
            subject: claims.subject,
            claims: claims.all,
            tokenType: response.tokenType
        )
    }
}
