/// An access token as a request presents it to a resource: with the `Bearer` scheme (RFC 6750 §2), or with the `DPoP`
/// scheme and the request's DPoP proofs (RFC 9449 §7.1), which are checked for that request.
package struct PresentedAccessToken: Sendable, Equatable {
    /// The `Authorization` scheme the token came with.
    package enum Scheme: Sendable, Equatable {
        /// `Bearer`, or a form parameter (RFC 6750 §2.2).
        case bearer
        /// `DPoP` (RFC 9449 §7.1).
        case dpop
    }

    /// The access token.
    package var token: String
    /// How it was sent.
    package var scheme: Scheme
    /// The values of the request's `DPoP` header fields.
    package var proofs: [String]
    /// The request's method: a proof's `htm`.
    package var method: String
    /// The request's path: a proof's `htu` is the issuer followed by it.
    package var path: String

    /// A token presented with `scheme` and `proofs` by a `method` request to `path`.
    package init(token: String, scheme: Scheme, proofs: [String] = [], method: String, path: String) {
        (self.token, self.scheme, self.proofs, self.method, self.path) = (token, scheme, proofs, method, path)
    }
}
