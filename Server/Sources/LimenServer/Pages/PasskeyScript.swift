import Crypto
import Foundation

/// The one script of a flow page with a `PASSKEY`: a button that answers it (`data-passkey`, the collector's key)
/// runs the browser's passkey ceremony with the options the page carries (`data-options` of the collector's hidden
/// field, WebAuthn's JSON form), puts the credential's JSON into that field and submits the form with the button.
/// Without scripts or WebAuthn the button submits nothing the server accepts, and the page says what to do instead.
/// A conditional `PASSKEY` (`data-mediation`, the sign-in node's) is the username field's autofill instead: its
/// request starts with the page, with the node's own one-use challenge, and a passkey picked answers the node.
enum PasskeyScript {
    /// The script (ES2017, no dependencies): `PublicKeyCredential.parseCreationOptionsFromJSON` /
    /// `parseRequestOptionsFromJSON` and `toJSON()` (WebAuthn Level 3), so no base64url code of its own.
    static let text = """
        (function () {
          var buttons = document.querySelectorAll("button[data-passkey]");
          var supported = window.PublicKeyCredential && PublicKeyCredential.parseRequestOptionsFromJSON;
          buttons.forEach(function (button) {
            var field = document.getElementById(button.getAttribute("data-passkey"));
            if (!field || field.hasAttribute("data-mediation")) { return; }
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
          // Autofill: a username field marked `webauthn` and the node's conditional PASSKEY. Where the browser has
          // conditional mediation, its request starts at once; a passkey picked answers the node with its hidden button.
          var username = document.querySelector("input[autocomplete~=webauthn]");
          var conditional = document.querySelector("input[data-mediation=conditional]");
          var answer = conditional && document.querySelector("button[data-passkey='" + conditional.id + "']");
          if (!username || !answer || !supported || !PublicKeyCredential.isConditionalMediationAvailable) { return; }
          PublicKeyCredential.isConditionalMediationAvailable().then(function (available) {
            if (!available) { return; }
            var options = JSON.parse(conditional.getAttribute("data-options"));
            // The request waits for the person: a test waits for this before it presses a button.
            document.documentElement.setAttribute("data-passkey-autofill", "pending");
            return navigator.credentials.get({
              mediation: "conditional", publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options)
            }).then(function (credential) {
              conditional.value = JSON.stringify(credential.toJSON());
              answer.form.requestSubmit(answer);
            });
          }).catch(function () {});
        })();
        """

    /// The SHA-256 source expression that allows ``text``.
    static let source = "'sha256-\(Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString())'"

    /// The directive a page with the script adds to its Content Security Policy: `script-src` allowing ``text`` only.
    static let directives = "; script-src \(source)"

    /// ``Pages/contentSecurityPolicy`` with ``directives``.
    static let contentSecurityPolicy = Pages.contentSecurityPolicy + directives
}
