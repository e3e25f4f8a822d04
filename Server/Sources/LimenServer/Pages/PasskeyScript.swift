import Crypto
import Foundation

/// The one script of a flow page with a `PASSKEY`: a button that answers it (`data-passkey`, the collector's key)
/// runs the browser's passkey ceremony with the options the page carries (`data-options` of the collector's hidden
/// field, WebAuthn's JSON form), puts the credential's JSON into that field and submits the form with the button.
/// Without scripts or WebAuthn the button submits nothing the server accepts, and the page says what to do instead.
/// On a page with a username field marked `webauthn` and a button to the passkey flow, it also offers passkeys as the
/// field's autofill (conditional mediation).
enum PasskeyScript {
    /// The script (ES2017, no dependencies): `PublicKeyCredential.parseCreationOptionsFromJSON` /
    /// `parseRequestOptionsFromJSON` and `toJSON()` (WebAuthn Level 3), so no base64url code of its own.
    static let text = """
        (function () {
          var buttons = document.querySelectorAll("button[data-passkey]");
          var supported = window.PublicKeyCredential && PublicKeyCredential.parseRequestOptionsFromJSON;
          buttons.forEach(function (button) {
            var field = document.getElementById(button.getAttribute("data-passkey"));
            if (!field) { return; }
            if (!supported) { button.disabled = true; return; }
            button.addEventListener("click", function (event) {
              event.preventDefault();
              var options = JSON.parse(field.getAttribute("data-options"));
              var ceremony = field.getAttribute("data-mode") === "register"
                ? navigator.credentials.create({publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options)})
                : navigator.credentials.get({publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options)});
              ceremony.then(function (credential) {
                field.value = JSON.stringify(credential.toJSON());
                button.form.requestSubmit(button);
              }, function () {
                var status = document.getElementById(field.id + "-status");
                if (status) { status.hidden = false; }
              });
            });
          });
          // Autofill: a username field marked `webauthn` next to a button to the passkey flow. Where the browser has
          // conditional mediation, that flow's page is fetched (as the button would post it) for its options and form,
          // and a passkey picked from the field's autofill answers that form.
          var username = document.querySelector("input[autocomplete~=webauthn]");
          var offer = document.querySelector("button[data-conditional-passkey]");
          if (!username || !offer || !supported || !PublicKeyCredential.isConditionalMediationAvailable) { return; }
          PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
            if (!available) { return null; }
            var body = new URLSearchParams(new FormData(offer.form));
            body.set("action", offer.value);
            // The attribute: `form.action` is the form's buttons named "action".
            return fetch(offer.form.getAttribute("action"), {method: "POST", body: body, credentials: "same-origin"});
          }).then(function (response) {
            return response && response.ok ? response.text() : null;
          }).then(function (html) {
            if (!html) { return; }
            var page = new DOMParser().parseFromString(html, "text/html");
            var field = page.querySelector("input[data-mode=authenticate]");
            var button = page.querySelector("button[data-passkey]");
            if (!field || !button) { return; }
            var options = JSON.parse(field.getAttribute("data-options"));
            // The passkey page's interaction is the request's now: a test waits for this before pressing a button.
            document.documentElement.setAttribute("data-passkey-autofill", "pending");
            return navigator.credentials.get({
              mediation: "conditional", publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options)
            }).then(function (credential) {
              var form = document.importNode(button.form, true);
              form.hidden = true;
              document.body.appendChild(form);
              form.querySelector("input[data-mode=authenticate]").value = JSON.stringify(credential.toJSON());
              form.requestSubmit(form.querySelector("button[data-passkey]"));
            });
          }).catch(function () {});
        })();
        """

    /// The SHA-256 source expression that allows ``text``.
    static let source = "'sha256-\(Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString())'"

    /// The directives a page with the script adds to its Content Security Policy: `script-src` allowing ``text`` only,
    /// and `connect-src 'self'` for the autofill's fetch of the passkey page.
    static let directives = "; script-src \(source); connect-src 'self'"

    /// ``Pages/contentSecurityPolicy`` with ``directives``.
    static let contentSecurityPolicy = Pages.contentSecurityPolicy + directives
}
