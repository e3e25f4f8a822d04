/// The hosted pages' Mustache templates, compiled into the binary so `swift run`, an installed executable and the test
/// runner all find them without a resource bundle. Every page extends `layout`; `{{…}}` escapes HTML.
enum PageTemplates {
    /// Every template by name.
    static let all: [String: String] = [
        "layout": layout,
        "sign-in": signIn,
        "sign-up": signUp,
        "consent": consent,
        "message": message,
        "logout": logout,
        "device": device,
        "account": account,
    ]

    /// The document around every page: language, title, stylesheet.
    static let layout = """
        <!doctype html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} – Limen</title>
        <link rel="stylesheet" href="static/limen.css">
        </head>
        <body>
        <main>
        <h1>{{title}}</h1>
        {{$content}}{{/content}}
        </main>
        </body>
        </html>

        """

    /// Email and password, with a link to sign-up that keeps the pending request (when sign-up is on).
    static let signIn = """
        {{<layout}}{{$content}}
        <p class="context">to continue to <strong>{{clientName}}</strong></p>
        {{#error}}<p class="error" role="alert" id="form-error">{{error}}</p>{{/error}}
        <form method="post" action="login">
        <input type="hidden" name="request" value="{{requestID}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="username" spellcheck="false" required \
        value="{{email}}"{{^email}} autofocus{{/email}}{{#error}} aria-describedby="form-error"{{/error}}>
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required\
        {{#email}} autofocus{{/email}}{{#error}} aria-describedby="form-error"{{/error}}>
        <button type="submit">Sign in</button>
        </form>
        {{#offersSignUp}}
        <p class="switch">No account yet? <a href="signup?request={{requestID}}">Create an account</a></p>
        {{/offersSignUp}}
        {{/content}}{{/layout}}
        """

    /// Email, name and a new password.
    static let signUp = """
        {{<layout}}{{$content}}
        <p class="context">to continue to <strong>{{clientName}}</strong></p>
        {{#error}}<p class="error" role="alert" id="form-error">{{error}}</p>{{/error}}
        <form method="post" action="signup">
        <input type="hidden" name="request" value="{{requestID}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" spellcheck="false" required \
        value="{{email}}" autofocus{{#error}} aria-describedby="form-error"{{/error}}>
        <label for="name">Name <span class="optional">(optional)</span></label>
        <input id="name" name="name" type="text" autocomplete="name" maxlength="200" value="{{name}}">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required \
        minlength="{{minimumPasswordLength}}" aria-describedby="password-rule{{#error}} form-error{{/error}}">
        <p class="hint" id="password-rule">At least {{minimumPasswordLength}} characters.</p>
        <button type="submit">Create account</button>
        </form>
        <p class="switch">Already have an account? <a href="login?request={{requestID}}">Sign in</a></p>
        {{/content}}{{/layout}}
        """

    /// What the client asks for, with Allow and Deny.
    static let consent = """
        {{<layout}}{{$content}}
        {{#deviceRequest}}<p class="notice" id="device-request">A device is asking to sign in to your account with the \
        code you entered. Allow it only if you started this yourself, on a device you have with you.</p>
        {{/deviceRequest}}<p class="context"><strong>{{clientName}}</strong> would like to:</p>
        <ul class="scopes">
        {{#scopes}}<li>{{.}}</li>
        {{/scopes}}
        </ul>
        {{#account}}<p class="account">Signed in as {{account}}</p>{{/account}}
        <form method="post" action="consent">
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
