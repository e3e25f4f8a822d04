import LimenServerStorage

/// The two kinds of token `/revoke` and `/introspect` accept, and the order to look for them in.
package enum TokenKind: Sendable, Equatable {
    /// A signed JWT (RFC 9068), checked by signature, then against its grant.
    case accessToken
    /// A random string, looked up by its hash in the store.
    case refreshToken

    /// Both kinds, the likelier first.
    ///
    /// A token shaped like a JWS (three dot-separated parts) is tried as an access token first, whatever the hint:
    /// refresh tokens are base64url and never hold a dot, and the signature check needs no store read. Otherwise
    /// `token_type_hint` decides (RFC 7009 §2.1, RFC 7662 §2.1), refresh token first without one. The other kind is
    /// always tried next: a wrong hint costs a lookup, never an answer.
    package static func lookupOrder(of token: String, hint: String?) -> [TokenKind] {
        let accessFirst = hint == "access_token" || token.utf8.lazy.filter { $0 == UInt8(ascii: ".") }.count == 2
        return accessFirst ? [.accessToken, .refreshToken] : [.refreshToken, .accessToken]
    }
}
