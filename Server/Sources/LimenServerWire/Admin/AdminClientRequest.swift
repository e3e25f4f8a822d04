/// `POST /admin/clients`: a client registration on the wire (member names after RFC 7591 where it has one).
///
/// ```json
/// {"client_id": "web", "client_name": "Web", "kind": "confidential", "redirect_uris": ["https://app.example/cb"],
///  "access_token_ttl": 300, "branding": {"display_name": "Example", "theme": "dark"}}
/// ```
package struct AdminClientRequest: AdminRequestBody, Sendable {
    /// The members ``AdminJSON`` accepts.
    package typealias Members = CodingKeys

    /// `branding` is read as strictly as the body.
    package static var nestedBodies: [String: any AdminRequestBody.Type] {
        [CodingKeys.branding.stringValue: AdminClientBrandingRequest.self]
    }

    /// `client_id`: the client's ID.
    package var clientID: String
    /// `client_name`: the name shown on the consent page.
    package var clientName: String?
    /// `kind`: `public` or `confidential`.
    package var kind: String?
    /// `native`: an app on a device (loopback and private-use redirects).
    package var native: Bool?
    /// `first_party`: trusted without a consent page.
    package var firstParty: Bool?
    /// `redirect_uris`.
    package var redirectURIs: [String]?
    /// `post_logout_redirect_uris`.
    package var postLogoutRedirectURIs: [String]?
    /// `id_token_signed_response_alg`.
    package var idTokenSignedResponseAlg: String?
    /// `access_token_ttl`, in seconds.
    package var accessTokenTTL: Int?
    /// `refresh_token_ttl`, in seconds.
    package var refreshTokenTTL: Int?
    /// `allow_no_pkce`: a legacy confidential client may leave PKCE out.
    package var allowNoPKCE: Bool?
    /// `email_link_uri`: where the link in an email with a one-time code leads (a universal link or the app's
    /// scheme), with the interaction and the code in its fragment.
    package var emailLinkURI: String?
    /// `grant_types` (RFC 7591 §2): the grant types the client may use; absent: `authorization_code` and
    /// `refresh_token`.
    package var grantTypes: [String]?
    /// `app2app_host`: the provider's own native app, which may approve other apps' sign-ins for its user
    /// (`POST /authorize/app2app`); only with `native` and `first_party`.
    package var appToAppHost: Bool?
    /// `dpop_bound_access_tokens` (RFC 9449 §5.2): the client must send a DPoP proof with every token request.
    package var dpopBoundAccessTokens: Bool?
    /// `require_acr`: the `acr` every sign-in for the client must reach, `mfa` or `phr`, whatever its requests ask.
    package var requireACR: String?
    /// `branding`: how the hosted pages present the client, as `PUT /admin/clients/{id}/branding` sets it.
    package var branding: AdminClientBrandingRequest?

    /// The members, as named on the wire.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case clientID = "client_id"
        case clientName = "client_name"
        case kind, native
        case firstParty = "first_party"
        case redirectURIs = "redirect_uris"
        case postLogoutRedirectURIs = "post_logout_redirect_uris"
        case idTokenSignedResponseAlg = "id_token_signed_response_alg"
        case accessTokenTTL = "access_token_ttl"
        case refreshTokenTTL = "refresh_token_ttl"
        case allowNoPKCE = "allow_no_pkce"
        case emailLinkURI = "email_link_uri"
        case grantTypes = "grant_types"
        case appToAppHost = "app2app_host"
        case dpopBoundAccessTokens = "dpop_bound_access_tokens"
        case requireACR = "require_acr"
        case branding
    }
}

extension AdminClientRequest {
    /// A registration of what the admin console's form gives: the ID, the name, the kind and the redirect URIs; every
    /// other member absent, as in a JSON body without it.
    package init(clientID: String, clientName: String?, kind: String?, redirectURIs: [String]) {
        self.clientID = clientID
        self.clientName = clientName
        self.kind = kind
        self.redirectURIs = redirectURIs
    }
}
