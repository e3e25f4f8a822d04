/// `PATCH /admin/clients/{id}`, a JSON merge patch (RFC 7396) of the settings an admin edits: a member left out stays
/// as it is; `"access_token_ttl": null` or `"refresh_token_ttl": null` gives the client the server's lifetime again.
/// `client_name`, `redirect_uris` and `post_logout_redirect_uris` cannot be `null` (`[]` removes every post-logout
/// redirect URI). Any other member is refused (by ``AdminJSON``): the kind, ID and secret are not edited here.
///
/// ```json
/// {"redirect_uris": ["https://shop.example/cb"], "access_token_ttl": 600, "refresh_token_ttl": null}
/// ```
package struct AdminClientPatch: AdminRequestBody, Sendable, Equatable {
    /// The members ``AdminJSON`` accepts.
    package typealias Members = CodingKeys

    /// A new `client_name`, if given.
    package var clientName: String?
    /// New `redirect_uris`, if given.
    package var redirectURIs: [String]?
    /// New `post_logout_redirect_uris`, if given.
    package var postLogoutRedirectURIs: [String]?
    /// A new `access_token_ttl` in seconds: `nil` to leave it, `.some(nil)` (`null`) for the server's.
    package var accessTokenTTL: Int??
    /// A new `refresh_token_ttl` in seconds: `nil` to leave it, `.some(nil)` (`null`) for the server's.
    package var refreshTokenTTL: Int??

    /// The members, as named on the wire.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case clientName = "client_name"
        case redirectURIs = "redirect_uris"
        case postLogoutRedirectURIs = "post_logout_redirect_uris"
        case accessTokenTTL = "access_token_ttl"
        case refreshTokenTTL = "refresh_token_ttl"
    }

    /// A patch of the members given (the admin console's form gives them all).
    package init(
        clientName: String? = nil, redirectURIs: [String]? = nil, postLogoutRedirectURIs: [String]? = nil,
        accessTokenTTL: Int?? = nil, refreshTokenTTL: Int?? = nil
    ) {
        (self.clientName, self.redirectURIs, self.postLogoutRedirectURIs) =
            (clientName, redirectURIs, postLogoutRedirectURIs)
        (self.accessTokenTTL, self.refreshTokenTTL) = (accessTokenTTL, refreshTokenTTL)
    }

    /// Decodes a patch, telling an absent lifetime from `null` and refusing `null` for the other members.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        /// The member `key` when given, `null` refused.
        func given<Value: Decodable>(_ key: CodingKeys) throws -> Value? {
            try container.contains(key) ? container.decode(Value.self, forKey: key) : nil
        }
        /// The member `key` when given, `null` kept as `.some(nil)`.
        func nullable(_ key: CodingKeys) throws -> Int?? {
            try container.contains(key) ? .some(container.decodeIfPresent(Int.self, forKey: key)) : nil
        }
        clientName = try given(.clientName)
        redirectURIs = try given(.redirectURIs)
        postLogoutRedirectURIs = try given(.postLogoutRedirectURIs)
        accessTokenTTL = try nullable(.accessTokenTTL)
        refreshTokenTTL = try nullable(.refreshTokenTTL)
    }
}
