import Foundation
import Hummingbird

/// The cookies the hosted pages set: `Path=/`, `HttpOnly`, `SameSite=Lax` (sent on the top-level navigation back to
/// `/authorize`, not on cross-site subrequests), and `Secure` when the issuer is served over HTTPS.
struct BrowserCookies: Sendable {
    /// Whether cookies are marked `Secure`.
    let secure: Bool

    /// Cookies for a provider whose issuer is `issuer`.
    init(issuer: String) {
        secure = issuer.lowercased().hasPrefix("https://")
    }

    /// The session cookie, living as long as the session.
    func session(_ value: String) -> Cookie {
        cookie(BrowserSessions.cookieName, value, maxAge: Int(BrowserSessions.lifetime))
    }

    /// Removes the session cookie.
    func clearedSession() -> Cookie {
        cookie(BrowserSessions.cookieName, "", maxAge: 0)
    }

    /// The browser's CSRF secret, kept until the browser closes.
    func csrfSecret(_ value: String) -> Cookie {
        cookie(CSRFToken.cookieName, value, maxAge: nil)
    }

    private func cookie(_ name: String, _ value: String, maxAge: Int?) -> Cookie {
        Cookie(name: name, value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
