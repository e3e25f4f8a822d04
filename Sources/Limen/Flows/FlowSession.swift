import Foundation
import LimenOIDC

/// What a ``FlowClient`` asks of the session it signs in to. ``AuthClient`` is one.
protocol FlowSession: Sendable {
    /// The signed-in user's access token, refreshed if needed; `nil` when nobody is signed in.
    func validAccessToken(minimumTimeToLive: TimeInterval?) async throws(LimenError) -> String?
    /// Sends `request` carrying the access token `token` through `transport`: as a bearer token, or, for a DPoP-bound
    /// session, under the `DPoP` scheme with a fresh proof (its `ath`, and the server's last nonce), a refusal asking
    /// for a new nonce answered with one retry.
    func send(_ request: HTTPRequest, presenting token: String, through transport: any HTTPTransport)
        async throws(LimenError) -> HTTPResponse
    /// The authorization request for a sign-in (its PKCE verifier, `state` and `nonce` redeem a flow's code; its
    /// `dpop_jkt` binds the code to the session's DPoP key).
    func authorizationRequest(redirectURI: URL, options: SignInOptions) async throws(LimenError)
        -> AuthorizationRequest
    /// The authorization code a web session's `callback` carries, once it is checked against `request`.
    func authorizationCode(of callback: URL, answering request: AuthorizationRequest) async throws(LimenError)
        -> String
    /// Redeems a success node's code on the sign-in path (state, events, storage).
    func redeemFlowCode(_ code: String, state: String?, issuer: String?, newUser: Bool?, interaction: FlowInteraction)
        async -> Node
    /// The end of a flow that registered something for the signed-in user (a passkey, two-step sign-in): a success
    /// with the session as it is.
    func registeredForSignedInUser() -> Node
}

extension FlowSession {
    /// Sends `request` carrying `token` as a bearer token.
    func send(_ request: HTTPRequest, presenting token: String, through transport: any HTTPTransport)
        async throws(LimenError) -> HTTPResponse
    {
        try await transport.send(request, bearer: token)
    }
}
