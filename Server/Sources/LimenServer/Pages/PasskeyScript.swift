import Crypto
import Foundation

/// The one script of a flow page with a `PASSKEY`: a button that answers it (`data-passkey`, the collector's key)
/// runs the browser's passkey ceremony with the options the page carries (`data-options` of the collector's hidden
/// field, WebAuthn's JSON form), puts the credential's JSON into that field and submits the form with the button.
/// Without scripts or WebAuthn the button submits nothing the server accepts, and the page says what to do instead.
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
        })();
        """

    /// The SHA-256 source expression that allows ``text``.
    static let source = "'sha256-\(Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString())'"

    /// ``Pages/contentSecurityPolicy`` with `script-src` allowing ``text`` only.
    static let contentSecurityPolicy = Pages.contentSecurityPolicy + "; script-src \(source)"
}
