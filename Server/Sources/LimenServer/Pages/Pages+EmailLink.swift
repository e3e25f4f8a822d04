import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore

extension Pages {
    /// The issuer's page an email's link opens (``EmailLink``): its one script reads the interaction and the code from
    /// the fragment, takes them out of the address bar and the history, and posts them with the CSRF token `csrf` to
    /// ``EmailLinkRoutes/submitPath``. The CSP allows that script by its hash and nothing else; without scripts the
    /// page says to type the code where it was asked for.
    static func emailLink(csrf: String) -> Response {
        let page = EmailLinkPage(
            lang: PageLanguage.tag(uiLocales: nil), title: "Continue with your code", root: "../",
            action: ".." + EmailLinkRoutes.submitPath, csrf: csrf, script: EmailLinkScript.text)
        return render(
            page, template: "email-link", title: page.title, status: .ok,
            contentSecurityPolicy: EmailLinkScript.contentSecurityPolicy)
    }

    /// An email's link opened where it cannot continue (in a browser other than the one that started the sign-in, or
    /// for an app's sign-in): the code was not used; it is shown to be typed where it was asked for. `code` is shown
    /// only when it has the form of a code.
    static func emailLinkElsewhere(code: String?) -> Response {
        let page = EmailLinkElsewherePage(
            lang: PageLanguage.tag(uiLocales: nil), title: "Continue where you asked for the code", code: code)
        return render(page, template: "email-link-elsewhere", title: page.title, status: .ok)
    }

    /// An email's link without an interaction or a code.
    static func emailLinkIncomplete() -> Response {
        message(
            title: "This link is incomplete",
            message: "Open the link from the email again, or type the code where you asked for it.",
            status: .badRequest)
    }

    /// An email's link whose interaction is unknown, over, expired, or no longer waiting for a code.
    static func emailLinkGone() -> Response {
        message(
            title: "This link no longer works",
            message:
                "The sign-in it belongs to has ended, has expired, or no longer waits for this code. Go back to where "
                + "you asked for the code, and ask for a new one if you need it.",
            status: .badRequest)
    }
}

/// The one script of the link page, and the Content Security Policy that allows it by its SHA-256 (computed from the
/// text, so the two cannot drift apart).
enum EmailLinkScript {
    /// Reads `limen_interaction` and `code` from the fragment, replaces the address without the fragment (so neither
    /// stays in the history), and submits the form; without both, shows the page's "incomplete" notice instead.
    static let text = """
        (function () {
          var fields = new URLSearchParams(location.hash.slice(1));
          history.replaceState(null, "", location.pathname + location.search);
          var form = document.getElementById("link-form");
          form.elements.interaction.value = fields.get("limen_interaction") || "";
          form.elements.code.value = fields.get("code") || "";
          if (form.elements.interaction.value && form.elements.code.value) {
            form.submit();
          } else {
            document.getElementById("link-status").hidden = true;
            document.getElementById("link-incomplete").hidden = false;
          }
        })();
        """

    /// ``Pages/contentSecurityPolicy`` with `script-src` allowing ``text`` only.
    static let contentSecurityPolicy =
        Pages.contentSecurityPolicy
        + "; script-src 'sha256-\(Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString())'"
}

extension PageTemplates {
    /// The page an email's link opens: a status, the notice shown when the link lacks its parts, what to do without
    /// scripts, and the hidden form the script fills and submits.
    static let emailLink = """
        {{<layout}}{{$content}}
        <p id="link-status" role="status">Continuing with the code from your email…</p>
        <p id="link-incomplete" class="error" hidden>This link is incomplete. Open the link from the email again, or \
        type the code where you asked for it.</p>
        <noscript><p class="error">Scripts are turned off in this browser, so this link cannot continue by itself. Go \
        back to the page or app where you asked for the code, and type the code from the email there.</p></noscript>
        <form id="link-form" method="post" action="{{action}}" hidden>
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="interaction">
        <input type="hidden" name="code">
        </form>
        <script>{{{script}}}</script>
        {{/content}}{{/layout}}
        """

    /// An email's link opened where it cannot continue: where to go, and the code to type there.
    static let emailLinkElsewhere = """
        {{<layout}}{{$content}}
        <p>This link continues a sign-in only in the browser or app where you asked for the code, so the code has not \
        been used. Go back there and type the code.</p>
        {{#code}}<p class="context">Your code:</p>
        <p class="code" id="link-code">{{code}}</p>
        {{/code}}
        {{/content}}{{/layout}}
        """
}

/// The values of the link page.
private struct EmailLinkPage {
    var lang: String
    var title: String
    /// The way back to the issuer's root from `/flows/link`, for the stylesheet.
    var root: String
    var action: String
    var csrf: String
    var script: String
}

/// The values of the page of a link opened where it cannot continue.
private struct EmailLinkElsewherePage {
    var lang: String
    var title: String
    var code: String?
}
