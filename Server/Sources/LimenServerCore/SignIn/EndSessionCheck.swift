import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// An RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 §2), checked: who the hint names, which
/// client asks, and where the browser may go afterwards. The redirect is kept only when the client is identified (by
/// `client_id` or the hint's audience, which must agree) and registered exactly that `post_logout_redirect_uri`, so
/// the endpoint is never an open redirector.
package struct EndSessionCheck: Sendable {
    /// Why a request is refused outright; the browser's session is left alone.
    package enum Refusal: Error, Sendable, Equatable {
        /// The `id_token_hint` is not an ID token this provider issued to a registered client (an access token, say).
        case invalidHint
        /// `client_id` is not an audience of the `id_token_hint`.
        case clientMismatch

        /// What the refusal page says.
        package var description: String {
            switch self {
            case .invalidHint: "The sign-out request names an ID token this provider did not issue."
            case .clientMismatch: "The sign-out request names one application but carries another's ID token."
            }
        }
    }

    /// The verified `id_token_hint`, if one was sent.
    package let hint: IDTokenHint?
    /// The client asking, when it is identified and registered.
    package let client: ClientRecord?
    /// The `post_logout_redirect_uri` as sent.
    let requestedRedirectURI: String?
    /// The `state` to echo.
    package let state: String?
    /// The `ui_locales` for the pages.
    package let uiLocales: String?

    /// Where to send the browser once signed out, `state` appended; `nil` unless the client registered the URI.
    package var redirect: String? {
        guard let client, let requestedRedirectURI, client.postLogoutRedirectURIs.contains(requestedRedirectURI),
            let url = URL(string: requestedRedirectURI)
        else { return nil }
        guard let state else { return requestedRedirectURI }
        return FormEncoding.appending([("state", state)], to: url).absoluteString
    }

    /// The parameters a confirmation form carries back to the endpoint (the hint stays out of the page: the client
    /// it identified is carried instead).
    package var confirmationFields: [(String, String)] {
        FormEncoding.present([
            ("client_id", client?.id), ("post_logout_redirect_uri", requestedRedirectURI), ("state", state),
            ("ui_locales", uiLocales),
        ])
    }

    /// Checks the parameters of a request (query or form) against the server's `keys`, `issuer` and `clients`.
    package static func check(
        _ fields: FormFields, keys: KeyRing, issuer: String, clients: any ClientStore, now: Date
    ) async throws(StorageError) -> Result<Self, Refusal> {
        var hint: IDTokenHint?
        if let token = fields["id_token_hint"] {
            hint = try await IDTokenHint.verify(token, keys: keys, issuer: issuer, clients: clients, now: now)
            guard hint != nil else { return .failure(.invalidHint) }
        }
        let requestedClientID = fields["client_id"]
        if let requestedClientID, let hint, !hint.audiences.contains(requestedClientID) {
            return .failure(.clientMismatch)
        }
        var client: ClientRecord?
        if let clientID = requestedClientID ?? hint?.clientID {
            client = try await clients.client(id: clientID)
        }
        return .success(
            EndSessionCheck(
                hint: hint,
                client: client,
                requestedRedirectURI: fields["post_logout_redirect_uri"],
                state: fields["state"],
                uiLocales: fields["ui_locales"]
            )
        )
    }
}
