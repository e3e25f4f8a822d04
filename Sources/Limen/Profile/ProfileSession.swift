import LimenOIDC

/// What a ``ProfileClient`` asks of the session whose user the profile is. ``AuthClient`` is one.
protocol ProfileSession: Sendable {
    /// Bumped by every sign-in and sign-out: the app schema is fetched once per generation.
    var generation: Int { get async }
    /// The signed-in user's ID (the ID token's `sub`), once the stored session is restored.
    func signedInUserID() async throws(LimenError) -> String
    /// Sends a request to a resource server with the signed-in user's access token.
    func authorizedRequest(_ request: HTTPRequest) async throws(LimenError) -> HTTPResponse
}
