import LimenServerCore

/// The hosted pages' Mustache templates, compiled into the binary so `swift run`, an installed executable and the test
/// runner all find them without a resource bundle. Every page extends `layout`; `{{…}}` escapes HTML.
enum PageTemplates {
    /// Every template by name.
    static let all: [String: String] = [
        "layout": layout,
        "flow": flow,
        "consent": consent,
        "message": message,
        "logout": logout,
        "device": device,
        "account": account,
        "account-security": accountSecurity,
        "console": console,
        "console-client": consoleClient,
        "console-keys": consoleKeys,
        "console-webhooks": consoleWebhooks,
        "console-webhook": consoleWebhook,
        "console-flows": consoleFlows,
        "console-schema": consoleSchema,
        "email-link": emailLink,
        "email-link-elsewhere": emailLinkElsewhere,
        "field-aria": fieldAria,
        "field-error": fieldError,
    ]

    /// The document around every page: language, title, stylesheet (through `root` on a page below the issuer's root),
    /// and a client's branding (``PageBrand``).
    static let layout = """
        <!doctype html>
        <html lang="{{lang}}"{{#brand}}{{#themeClass}} class="{{themeClass}}"{{/themeClass}}{{/brand}}>
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} – Limen</title>
        <link rel="stylesheet" href="{{root}}static/limen.css">
        {{#brand}}{{#style}}<style>{{{style}}}</style>
        {{/style}}{{/brand}}</head>
        <body>
        <main{{#mainClass}} class="{{mainClass}}"{{/mainClass}}>
        {{#brand}}{{#logoURL}}<img class="logo" src="{{logoURL}}" alt="{{name}}">
        {{/logoURL}}{{/brand}}<h1>{{title}}</h1>
        {{$content}}{{/content}}
        </main>
        </body>
        </html>

        """

    /// A node of a flow (``FlowPageRenderer``): its description, the error summary, then each collector as a control.
    static let flow = """
        {{<layout}}{{$content}}
        {{#description}}<p class="description">{{description}}</p>
        {{/description}}<p class="context">to continue to <strong>{{brand.name}}</strong></p>
        {{#error}}<p class="error" role="alert" id="form-error">{{error}}</p>
        {{/error}}<form method="post" action="{{action}}">
        <input type="hidden" name="request" value="{{requestID}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="node" value="{{nodeID}}">
        {{#flowField}}<input type="hidden" name="flow" value="{{flowField}}">
        {{/flowField}}{{#controls}}{{#input}}<label for="{{id}}">{{label}}{{#optional}} \
        <span class="optional">(optional)</span>{{/optional}}</label>
        <input id="{{id}}" name="{{id}}" type="{{type}}"{{#autocomplete}} autocomplete="{{autocomplete}}"{{/autocomplete}}\
        {{#inputMode}} inputmode="{{inputMode}}"{{/inputMode}}{{#spellcheckOff}} spellcheck="false"{{/spellcheckOff}}\
        {{#required}} required{{/required}}{{#minLength}} minlength="{{minLength}}"{{/minLength}}\
        {{#maxLength}} maxlength="{{maxLength}}"{{/maxLength}}{{#value}} value="{{value}}"{{/value}}\
        {{#autofocus}} autofocus{{/autofocus}}{{>field-aria}}>
        {{#hint}}<p class="hint" id="{{id}}-hint">{{hint}}</p>
        {{/hint}}{{>field-error}}{{/input}}{{#checkbox}}<div class="check">
        <input id="{{id}}" name="{{id}}" type="checkbox" value="true"{{#required}} required{{/required}}\
        {{#checked}} checked{{/checked}}{{#autofocus}} autofocus{{/autofocus}}{{>field-aria}}>
        <label for="{{id}}">{{label}}</label>
        </div>
        {{>field-error}}{{/checkbox}}{{#group}}<fieldset{{#field}}{{#describedBy}} aria-describedby="{{describedBy}}"\
        {{/describedBy}}{{/field}}>
        <legend>{{legend}}</legend>
        {{#choices}}<div class="check"><input id="{{id}}" name="{{name}}" type="{{inputType}}" value="{{value}}"\
        {{#required}} required{{/required}}{{#chosen}} checked{{/chosen}}>
        <label for="{{id}}">{{label}}</label></div>
        {{/choices}}{{>field-error}}</fieldset>
        {{/group}}{{#select}}<label for="{{id}}">{{label}}</label>
        <select id="{{id}}" name="{{id}}"{{#multiple}} multiple{{/multiple}}{{#required}} required{{/required}}\
        {{#autofocus}} autofocus{{/autofocus}}{{>field-aria}}>
        {{^multiple}}<option value="">Choose…</option>
        {{/multiple}}{{#choices}}<option value="{{value}}"{{#chosen}} selected{{/chosen}}>{{label}}</option>
        {{/choices}}</select>
        {{>field-error}}{{/select}}{{#text}}<p class="text">{{text}}</p>
        {{/text}}{{#passkey}}<input type="hidden" id="{{id}}" name="{{id}}" data-mode="{{mode}}" \
        {{#conditional}}data-mediation="conditional" {{/conditional}}data-options="{{options}}">
        {{^conditional}}<p class="error" id="{{id}}-status" role="alert" hidden>The passkey could not be used. Try \
        again, or choose another way.</p>
        <noscript><p class="hint">A passkey needs scripts, which are turned off in this browser: choose another way.\
        </p></noscript>
        {{/conditional}}{{/passkey}}{{#button}}<button type="submit" name="action" value="{{key}}"{{#style}} class="{{style}}"{{/style}}\
        {{#skipsValidation}} formnovalidate{{/skipsValidation}}{{#passkey}} data-passkey="{{passkey}}"{{/passkey}}\
        {{#hidden}} hidden{{/hidden}}>\
        {{label}}</button>
        {{/button}}{{#link}}<p class="switch"><a href="{{href}}">{{label}}</a></p>
        {{/link}}{{/controls}}</form>
        {{#federation}}<section class="federation" aria-label="Other ways to sign in">
        {{#providers}}<form method="post" action="{{action}}">
        <input type="hidden" name="request" value="{{requestID}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" class="secondary">{{label}}</button>
        </form>
        {{/providers}}</section>
        {{/federation}}{{#script}}<script>{{{script}}}</script>
        {{/script}}{{/content}}{{/layout}}
        """

    /// A flow page control's ARIA attributes (in a control's context): `aria-invalid` when its field has an error, and
    /// `aria-describedby` naming its hint, its error and the page's summary.
    static let fieldAria = """
        {{#field}}{{#invalid}} aria-invalid="true"{{/invalid}}{{#describedBy}} aria-describedby="{{describedBy}}"\
        {{/describedBy}}{{/field}}
        """

    /// A flow page control's error under it, when its field has one.
    static let fieldError = """
        {{#field}}{{#fieldError}}<p class="field-error" id="{{errorID}}">{{fieldError}}</p>
        {{/fieldError}}{{/field}}
        """

    /// What the client asks for, with Allow and Deny.
    static let consent = """
        {{<layout}}{{$content}}
        {{#deviceRequest}}<p class="notice" id="device-request">A device is asking to sign in to your account with the \
        code you entered. Allow it only if you started this yourself, on a device you have with you.</p>
        {{/deviceRequest}}<p class="context"><strong>{{brand.name}}</strong> would like to:</p>
        <ul class="scopes">
        {{#scopes}}<li>{{.}}</li>
        {{/scopes}}
        </ul>
        {{#account}}<p class="account">Signed in as {{account}}</p>{{/account}}
        <form method="post" action="{{root}}consent">
        <input type="hidden" name="request" value="{{requestID}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <div class="actions">
        <button type="submit" name="decision" value="allow">Allow</button>
        <button type="submit" name="decision" value="deny" class="secondary">Deny</button>
        </div>
        </form>
        {{/content}}{{/layout}}
        """

    /// A message: errors, expired requests, signed out.
    static let message = """
        {{<layout}}{{$content}}
        <p{{#isError}} class="error" role="alert"{{/isError}}>{{message}}</p>
        {{/content}}{{/layout}}
        """

    /// Sign-out confirmation.
    static let logout = """
        {{<layout}}{{$content}}
        <p>{{message}}</p>
        <form method="post" action="{{action}}">
        {{#fields}}<input type="hidden" name="{{name}}" value="{{value}}">
        {{/fields}}<input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">Sign out</button>
        </form>
        {{/content}}{{/layout}}
        """

    /// The verification page of the device authorization grant: the user code, prefilled when the link carried it.
    static let device = """
        {{<layout}}{{$content}}
        <p class="context">Enter the code shown on your device.</p>
        {{#error}}<p class="error" role="alert" id="form-error">{{error}}</p>{{/error}}
        <form method="post" action="device">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="user_code">Code</label>
        <input id="user_code" name="user_code" type="text" autocomplete="one-time-code" autocapitalize="characters" \
        spellcheck="false" required maxlength="20" placeholder="XXXX-XXXX" value="{{userCode}}" \
        autofocus{{#error}} aria-describedby="form-error"{{/error}}>
        <button type="submit">Continue</button>
        </form>
        {{/content}}{{/layout}}
        """
}
