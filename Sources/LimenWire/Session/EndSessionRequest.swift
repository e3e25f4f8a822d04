import Foundation

/// An RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 §2).
public struct EndSessionRequest: Sendable, Equatable {
    /// The ID token last issued to the client, identifying the session to end.
    public var idTokenHint: String?
    /// Where the provider sends the browser afterwards; must be registered.
    public var postLogoutRedirectURI: URL?
    /// Echoed back to ``postLogoutRedirectURI``.
    public var state: String?
    /// The client identifier (recommended when there is no `id_token_hint`).
    public var clientID: String?

    /// Creates a request.
    public init(idTokenHint: String?, postLogoutRedirectURI: URL? = nil, state: String? = nil, clientID: String? = nil)
    {
        self.idTokenHint = idTokenHint
        self.postLogoutRedirectURI = postLogoutRedirectURI
        self.state = state
        self.clientID = clientID
    }

    /// The URL to open in the browser.
    public func url(endSessionEndpoint: URL) -> URL {
        let optional: [(String, String?)] = [
            ("id_token_hint", idTokenHint),
            ("post_logout_redirect_uri", postLogoutRedirectURI?.absoluteString),
            ("state", postLogoutRedirectURI == nil ? nil : state),
            ("client_id", clientID),
        ]
        return FormEncoding.appending(FormEncoding.present(optional), to: endSessionEndpoint)
    }
}
