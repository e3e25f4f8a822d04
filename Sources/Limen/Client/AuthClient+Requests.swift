import Foundation
import LimenOIDC

extension AuthClient {
    /// Sends a request to a resource server with the access token; on `401` with `error="invalid_token"` it
    /// refreshes once and retries once.
    ///
    /// A bearer token goes as `Authorization: Bearer`. A DPoP-bound token (``TokenSet/isDPoPBound``, issued when
    /// ``Configuration/dpop`` is set) goes as `Authorization: DPoP` with a fresh proof carrying its hash (`ath`) and
    /// the resource server's last nonce; a `401` asking for a new nonce (`DPoP error="use_dpop_nonce"`) is answered
    /// with one retry.
    /// - Throws: ``LimenError/notSignedIn`` without a session; network errors as ``LimenError/network(_:)``;
    ///   ``LimenError/oauth(_:)`` with `use_dpop_nonce` when the server refuses the nonce it asked for too.
    public func authorizedRequest(_ request: HTTPRequest) async throws(LimenError) -> HTTPResponse {
        guard let token = try await validAccessToken() else { throw .notSignedIn }
        let first = try await send(request, presenting: token, through: configuration.transport)
        guard first.status == 401, Self.isInvalidTokenChallenge(first.header("WWW-Authenticate")) else { return first }
        guard let renewed = try await refresh() else { throw .sessionExpired }
        return try await send(request, presenting: renewed, through: configuration.transport)
    }

    /// The signed-in user's claims from the UserInfo endpoint; also merged into the state's user claims, and kept in
    /// memory for the rest of the session (``CurrentUser/userinfo(cache:)`` answers from it).
    public func userInfo() async throws(LimenError) -> UserInfo {
        let session = generation
        guard let token = try await validAccessToken(), let current = tokens else { throw .notSignedIn }
        let metadata = try await metadata()
        guard let endpoint = metadata.userinfoEndpoint else {
            throw .protocolViolation(.unsupported("the UserInfo endpoint"))
        }
        let dpop = try await dpopBinding(presenting: current)
        let info: UserInfo
        do {
            info = try await UserInfo.fetch(
                from: endpoint,
                accessToken: token,
                expectedSubject: current.subject,
                transport: configuration.transport,
                dpop: dpop
            )
        } catch {
            throw LimenError(error)
        }
        if var latest = tokens, latest.subject == info.subject {
            latest.claims.merge(info.claims) { _, fresh in fresh }
            try await adopt(latest)
        }
        // A sign-out or another sign-in while the request ran ended the session it was for: not kept.
        if generation == session { lastUserInfo = info }
        return info
    }

    /// The UserInfo last fetched in the current session, if any (see ``userInfo()``).
    func rememberedUserInfo() async -> UserInfo? {
        try? await ensureRestored()
        guard let last = lastUserInfo, last.subject == tokens?.subject else { return nil }
        return last
    }

    /// The stored token set, for tools that need the raw tokens (for example `limen token`).
    public func currentTokens() async -> TokenSet? {
        try? await ensureRestored()
        return tokens
    }

    /// Sends `request` through `transport` with the access token `token` of the current session, as a bearer or
    /// DPoP-bound token (a fresh proof; a refusal asking for a new nonce answered with one retry).
    func send(_ request: HTTPRequest, presenting token: String, through transport: any HTTPTransport)
        async throws(LimenError) -> HTTPResponse
    {
        guard let dpop = try await dpopBinding(presenting: tokens) else {
            return try await transport.send(request, bearer: token)
        }
        return try await LimenError.mapping { () async throws(OIDCError) in
            try await dpop.send(request, accessToken: token, through: transport)
        }
    }

    /// Whether a `WWW-Authenticate` value is a Bearer or DPoP challenge with `error="invalid_token"` (RFC 6750 §3.1,
    /// RFC 9449 §7.1).
    static func isInvalidTokenChallenge(_ value: String?) -> Bool {
        BearerChallenge(value)?.error == "invalid_token"
    }
}
