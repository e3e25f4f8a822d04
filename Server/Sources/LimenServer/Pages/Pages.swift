import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import Mustache
import NIOCore

/// Renders the hosted pages (flow nodes through ``FlowPageRenderer``, consent, messages, sign-out) as HTML responses with the headers every
/// page carries: a strict CSP without `form-action` (Chromium applies it to the redirect that follows a form POST,
/// which would block the 302 to the client), `Referrer-Policy: no-referrer` and `Cache-Control: no-store`.
enum Pages {
    /// The pages' Content Security Policy: only the stylesheet from here, no scripts, no framing.
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'"

    /// The compiled templates; ``PageTemplates`` are constants checked by a test, so a parse failure cannot depend
    /// on input (pages would then fall back to plain HTML rather than crash).
    static let library: MustacheLibrary? = try? compile()

    /// Compiles every template of ``PageTemplates``.
    static func compile() throws -> MustacheLibrary {
        var library = MustacheLibrary()
        for (name, text) in PageTemplates.all {
            try library.register(text, named: name)
        }
        return library
    }

    /// The consent page: the client, what it asks for, and who is signed in; for a device authorization, a warning
    /// that it signs in a device somewhere else (RFC 8628 §5.4). `root` leads back to the issuer's root from a page
    /// below it (`../../` at `/federation/{id}/callback`), for the stylesheet and the form.
    static func consent(_ pending: PendingAuthorization, csrf: String, account: String?, root: String = "") -> Response
    {
        let page = ConsentPage(
            lang: PageLanguage.tag(uiLocales: pending.record.uiLocales),
            title: pending.isDeviceRequest ? "Connect a device?" : "Allow access?",
            brand: PageBrand(client: pending.client),
            requestID: pending.id,
            csrf: csrf,
            scopes: pending.scopes.map(ScopeDescriptions.describe),
            account: account,
            deviceRequest: pending.isDeviceRequest,
            root: root
        )
        return render(
            page, template: "consent", title: page.title, status: .ok,
            contentSecurityPolicy: page.brand.contentSecurityPolicy)
    }

    /// A page with a title and one message; `isError` marks it as an alert.
    static func message(
        title: String,
        message: String,
        status: HTTPResponse.Status,
        isError: Bool = true,
        uiLocales: String? = nil
    ) -> Response {
        let page = MessagePage(
            lang: PageLanguage.tag(uiLocales: uiLocales),
            title: title,
            message: message,
            isError: isError
        )
        return render(page, template: "message", title: title, status: status)
    }

    /// The sign-out confirmation of `/logout`.
    static func logout(csrf: String, signedIn: Bool) -> Response {
        signOutConfirmation(
            message: signedIn ? "Sign out of Limen in this browser?" : "You are not signed in.",
            action: "logout",
            csrf: csrf,
            fields: [],
            uiLocales: nil
        )
    }

    /// A sign-out confirmation: `message`, and a form posting the hidden `fields` and the CSRF token to `action`.
    static func signOutConfirmation(
        message: String,
        action: String,
        csrf: String,
        fields: [(String, String)],
        uiLocales: String?
    ) -> Response {
        let page = LogoutPage(
            lang: PageLanguage.tag(uiLocales: uiLocales),
            title: "Sign out",
            message: message,
            action: action,
            fields: fields.map { HiddenField(name: $0.0, value: $0.1) },
            csrf: csrf
        )
        return render(page, template: "logout", title: page.title, status: .ok)
    }

    /// Renders `page` with `template` as a page with the common headers (`contentSecurityPolicy` widened for a client's
    /// branding, ``PageBrand``).
    static func render(
        _ page: Any,
        template: String,
        title: String,
        status: HTTPResponse.Status,
        contentSecurityPolicy: String = Pages.contentSecurityPolicy
    ) -> Response {
        guard let html = library?.render(page, withTemplate: template) else {
            return Responses.html(title: title, message: "This page cannot be shown.", status: .internalServerError)
        }
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .contentSecurityPolicy: contentSecurityPolicy,
        ]
        if let referrerPolicy = HTTPField.Name("Referrer-Policy") { headers[referrerPolicy] = "no-referrer" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }
}

/// The values of the consent page.
private struct ConsentPage {
    var lang: String
    var title: String
    var brand: PageBrand
    var requestID: String
    var csrf: String
    var scopes: [String]
    var account: String?
    var deviceRequest: Bool
    var root: String
}

/// The values of a message page.
private struct MessagePage {
    var lang: String
    var title: String
    var message: String
    var isError: Bool
}

/// The values of the sign-out page.
private struct LogoutPage {
    var lang: String
    var title: String
    var message: String
    var action: String
    var fields: [HiddenField]
    var csrf: String
}

/// A hidden form field.
private struct HiddenField {
    var name: String
    var value: String
}
