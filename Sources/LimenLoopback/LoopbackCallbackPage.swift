import Crypto
import FlyingFox
import Foundation
import Limen

/// The small, self-contained pages the loopback listener answers the browser with.
///
/// No page ever echoes a request parameter (the code, state and error description stay out of the HTML), loads
/// nothing from the network, and runs no script: the only thing the CSP allows is the page's own inline style,
/// pinned by its SHA-256 hash.
enum LoopbackCallbackPage: Equatable {
    /// The callback carried an authorization code.
    case succeeded
    /// The callback carried an `error` parameter.
    case failed
    /// The callback path was hit without `code`/`error` and `state`.
    case malformed
    /// A callback arrived after the first one was accepted.
    case alreadyHandled
    /// Any other path (for example `/favicon.ico`).
    case notFound
    /// The callback path with a method other than GET.
    case methodNotAllowed

    var status: HTTPStatusCode {
        switch self {
        case .succeeded, .failed: .ok
        case .malformed: .badRequest
        case .alreadyHandled: .gone
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        }
    }

    var title: String {
        switch self {
        case .succeeded: "Signed in"
        case .failed: "Sign-in failed"
        case .malformed: "Not a sign-in response"
        case .alreadyHandled: "Already handled"
        case .notFound: "Not found"
        case .methodNotAllowed: "Method not allowed"
        }
    }

    var message: String {
        switch self {
        case .succeeded: "You can close this window and return to the app."
        case .failed: "The sign-in did not complete. You can close this window and return to the app for details."
        case .malformed: "This request carries no sign-in result. The app is still waiting for the browser."
        case .alreadyHandled: "This sign-in was already handled. You can close this window."
        case .notFound: "There is nothing here."
        case .methodNotAllowed: "Only GET is accepted here."
        }
    }

    /// The page's only style sheet; its hash is the CSP's `style-src`.
    static let style =
        "body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#222}"
        + "h1{font-size:1.4rem}"

    /// `Content-Security-Policy`: nothing but the inline style above.
    static let contentSecurityPolicy: String = {
        let digest = Data(SHA256.hash(data: Data(style.utf8))).base64EncodedString()
        return "default-src 'none'; style-src 'sha256-\(digest)'; base-uri 'none'; form-action 'none'; "
            + "frame-ancestors 'none'"
    }()

    /// The HTML document.
    var html: String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">\
        <meta name="viewport" content="width=device-width, initial-scale=1">\
        <title>\(title)</title><style>\(Self.style)</style></head>\
        <body><h1>\(title)</h1><p>\(message)</p></body></html>

        """
    }

    /// The full response, with the security headers.
    var response: FlyingFox.HTTPResponse {
        var headers: HTTPHeaders = [
            .contentType: "text/html; charset=utf-8",
            HTTPHeader("Cache-Control"): "no-store",
            HTTPHeader("Pragma"): "no-cache",
            HTTPHeader("Content-Security-Policy"): Self.contentSecurityPolicy,
            HTTPHeader("Referrer-Policy"): "no-referrer",
            HTTPHeader("X-Content-Type-Options"): "nosniff",
            HTTPHeader("X-Frame-Options"): "DENY",
        ]
        if self == .methodNotAllowed {
            headers[HTTPHeader("Allow")] = "GET"
        }
        return HTTPResponse(statusCode: status, headers: headers, body: Data(html.utf8))
    }
}
