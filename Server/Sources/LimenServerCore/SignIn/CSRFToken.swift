import Crypto
import Foundation
import LimenServerStorage
import LimenWire

/// Tokens that tie a form to the browser it was shown in and to this server: a double-submit cookie with a keyed HMAC.
///
/// Each browser gets a random secret in the `limen_csrf` cookie (`__Host-limen_csrf` on an HTTPS issuer; HttpOnly,
/// so page scripts cannot read it). A form carries HMAC-SHA256(HMAC-SHA256(server key, secret), purpose), where the
/// server key is derived from the master key and the purpose names what the form does (`authorize:<request id>`,
/// `consent:<request id>:<subject>`, `logout:<session>`, `end_session:<session>`, `device`, `email_link`). Another
/// site can make the browser send the cookie, but it cannot read it; and a cookie an attacker planted (a value they
/// know) does not let them compute a token either, since they do not hold the server key. A token for one request,
/// user or session does not pass for another: the sign-out forms are bound to the session, so a token the server
/// showed an attacker for a secret they planted does not sign the victim out.
package enum CSRFToken {
    /// The cookie holding the browser's secret (with the `__Host-` prefix on an HTTPS issuer:
    /// ``BrowserCookies/csrfName``).
    package static let cookieName = "limen_csrf"
    /// The form field holding the token.
    package static let fieldName = "csrf"

    /// The token for `purpose` in the browser holding `browserSecret`, under the server's CSRF key `serverKey`.
    package static func make(serverKey: SymmetricKey, browserSecret: String, purpose: String) -> String {
        let browserKey = HMAC<SHA256>.authenticationCode(for: Data(browserSecret.utf8), using: serverKey)
        let mac = HMAC<SHA256>.authenticationCode(for: Data(purpose.utf8), using: SymmetricKey(data: Data(browserKey)))
        return Base64URL.encode(Data(mac))
    }

    /// Whether `token` is the one for `purpose` in this browser; compared in constant time. A missing token or
    /// cookie never passes.
    package static func isValid(_ token: String?, serverKey: SymmetricKey, browserSecret: String?, purpose: String)
        -> Bool
    {
        guard let token, let browserSecret, !browserSecret.isEmpty else { return false }
        return ConstantTime.equals(token, make(serverKey: serverKey, browserSecret: browserSecret, purpose: purpose))
    }

    /// The purpose of the sign-in and sign-up forms of a pending request.
    package static func signInPurpose(requestID: String) -> String {
        "authorize:\(requestID)"
    }

    /// The purpose of a consent form: bound to the user it was shown to, so a sign-in in another tab voids it.
    package static func consentPurpose(requestID: String, subject: String) -> String {
        "consent:\(requestID):\(subject)"
    }

    /// The purpose of the sign-out form, bound to the session it ends (by the cookie's SHA-256): a token the server
    /// showed for another session (an attacker's, in a browser holding a CSRF secret they planted) does not pass.
    package static func logoutPurpose(sessionCookie: String?) -> String {
        "logout:" + sessionTag(sessionCookie)
    }

    /// The purpose of the confirmation asked by `/end_session`, bound to the session like ``logoutPurpose(sessionCookie:)``.
    package static func endSessionPurpose(sessionCookie: String?) -> String {
        "end_session:" + sessionTag(sessionCookie)
    }

    /// The purpose of the forms of `/account`, bound to the session like ``logoutPurpose(sessionCookie:)``.
    package static func accountPurpose(sessionCookie: String?) -> String {
        "account:" + sessionTag(sessionCookie)
    }

    /// The purpose of the forms of the admin console, bound to the session like ``logoutPurpose(sessionCookie:)``.
    package static func consolePurpose(sessionCookie: String?) -> String {
        "console:" + sessionTag(sessionCookie)
    }

    /// The purpose of the user-code form of `/device`.
    package static let devicePurpose = "device"

    /// The purpose of the form of the page an email's link opens (`/flows/link`): it posts a code, so another site
    /// must not make the browser post one (the interaction it continues is also bound to this browser).
    package static let emailLinkPurpose = "email_link"

    /// Names a session in a purpose without its cookie value: the SHA-256 the store keys it by; empty without one.
    private static func sessionTag(_ sessionCookie: String?) -> String {
        guard let sessionCookie, !sessionCookie.isEmpty else { return "" }
        return Base64URL.encode(RandomIdentifier.hash(sessionCookie))
    }
}
