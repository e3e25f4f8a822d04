import Crypto
import Foundation
import Hummingbird
import LimenServerCore

/// What a browser's request carries for the hosted pages: its session cookie and its CSRF secret (a new one when the
/// browser has none yet, set on the response by ``finish(_:cookies:)``), with what the server derives from that secret:
/// the CSRF tokens of its forms and the binding of the sign-in requests it starts.
struct BrowserState: Sendable {
    /// The session cookie's value.
    let sessionCookie: String?
    /// The browser's CSRF secret.
    let csrfSecret: String
    /// Whether the secret was made for this response (the browser sent none).
    let isNewCSRFSecret: Bool
    /// This browser's mark on the sign-in requests it starts: HMAC-SHA256 of its secret under the master key's
    /// pending-request-binding key (see ``PendingAuthorization/isBound(to:)``).
    let requestBinding: Data
    /// The server's CSRF key.
    private let csrfKey: SymmetricKey

    /// Reads the cookies of `request` by the names `cookies` uses (`__Host-` names on an HTTPS issuer, so a cookie of
    /// the plain name planted from a sibling domain is not read); `keys` gives the server's CSRF and binding keys.
    init(request: Request, cookies: BrowserCookies, keys: DerivedKeys) {
        sessionCookie = request.cookies[cookies.sessionName]?.value
        if let existing = request.cookies[cookies.csrfName]?.value, !existing.isEmpty {
            csrfSecret = existing
            isNewCSRFSecret = false
        } else {
            csrfSecret = RandomIdentifier.make()
            isNewCSRFSecret = true
        }
        csrfKey = keys.key(for: .csrf)
        requestBinding = Data(
            HMAC<SHA256>.authenticationCode(for: Data(csrfSecret.utf8), using: keys.key(for: .pendingRequestBinding)))
    }

    /// The token a form for `purpose` carries.
    func csrfToken(for purpose: String) -> String {
        CSRFToken.make(serverKey: csrfKey, browserSecret: csrfSecret, purpose: purpose)
    }

    /// Whether a submitted form carries the token for `purpose` in this browser. A browser that sent no CSRF cookie
    /// never passes.
    func acceptsCSRFToken(_ token: String?, for purpose: String) -> Bool {
        CSRFToken.isValid(
            token, serverKey: csrfKey, browserSecret: isNewCSRFSecret ? nil : csrfSecret, purpose: purpose)
    }

    /// Sets the CSRF cookie on `response` when it is new.
    func finish(_ response: inout Response, cookies: BrowserCookies) {
        if isNewCSRFSecret { response.setCookie(cookies.csrfSecret(csrfSecret)) }
    }
}
