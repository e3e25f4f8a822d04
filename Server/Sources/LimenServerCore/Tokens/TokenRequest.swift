import LimenServerStorage
import LimenServerWire
import Logging

/// One request to `/token`, as a grant sees it once its client has authenticated.
package struct TokenRequest: Sendable {
    /// The request's form parameters.
    package var form: FormFields
    /// The client that sent it, authenticated.
    package var client: ClientRecord
    /// The thumbprint of the key of the request's DPoP proof, checked (RFC 9449 §4.3); `nil` without one. The access
    /// token is bound to it, and so is a public client's new grant's refresh token.
    package var proofKey: String?
    /// The request's logger, carrying its request id.
    package var logger: Logger
    /// Where the request came from, for the events it causes.
    package var origin: RequestOrigin

    /// A request of `client` with `form` from `origin`, its DPoP proof by `proofKey` if any, logging through `logger`.
    package init(
        form: FormFields, client: ClientRecord, proofKey: String? = nil, logger: Logger, origin: RequestOrigin
    ) {
        (self.form, self.client, self.proofKey, self.logger, self.origin) = (form, client, proofKey, logger, origin)
    }
}
