import Foundation
import Hummingbird
import LimenServerCore

/// The cookies the hosted pages set: `Path=/`, `HttpOnly`, `SameSite=Lax` (sent on the top-level navigation back to
/// `/authorize`, not on cross-site subrequests), no `Domain`. When the issuer is served over HTTPS they are `Secure`
/// and named with the `__Host-` prefix (RFC 6265bis §4.1.3.2), which browsers accept only from this very host: a
/// sibling subdomain cannot plant a session or CSRF cookie of that name.
struct BrowserCookies: Sendable {
    /// The prefix browsers reserve for host-only, secure cookies with `Path=/`.
    static let hostPrefix = "__Host-"

    /// Whether cookies are marked `Secure` (and named with ``hostPrefix``).
    let secure: Bool

    /// Cookies for a provider whose issuer is `issuer`.
    init(issuer: String) {
        secure = issuer.lowercased().hasPrefix("https://")
    }

    /// The session cookie's name.
    var sessionName: String { name(BrowserSessions.cookieName) }
    /// The CSRF cookie's name.
    var csrfName: String { name(CSRFToken.cookieName) }

    /// The session cookie, living as long as the session.
    func session(_ value: String) -> Cookie {
        cookie(sessionName, value, maxAge: Int(BrowserSessions.lifetime))
    }

    /// Removes the session cookie.
    func clearedSession() -> Cookie {
        cookie(sessionName, "", maxAge: 0)
    }

    /// The browser's CSRF secret, kept until the browser closes.
    func csrfSecret(_ value: String) -> Cookie {
        cookie(csrfName, value, maxAge: nil)
    }

    private func name(_ base: String) -> String {
        secure ? Self.hostPrefix + base : base
    }

    private func cookie(_ name: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
