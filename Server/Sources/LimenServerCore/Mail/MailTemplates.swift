import Mustache

/// The emails' Mustache templates, plain text and HTML for each message, compiled into the binary like the pages'
/// (``PageTemplates``). In the text templates `{{{…}}}` inserts a value as it is; in the HTML ones `{{…}}` escapes it.
enum MailTemplates {
    /// Every template by name.
    package static let all: [String: String] = [
        "code.text": codeText, "code.html": codeHTML, "sign-up-notice.text": signUpNoticeText,
        "sign-up-notice.html": signUpNoticeHTML, "account-notice.text": accountNoticeText,
        "account-notice.html": accountNoticeHTML,
    ]

    /// The compiled templates; the constants are checked by a test, so rendering cannot fail on input.
    package static let library: MustacheLibrary? = try? compile()

    /// Compiles every template of ``all``.
    package static func compile() throws -> MustacheLibrary {
        var library = MustacheLibrary()
        for (name, text) in all {
            try library.register(text, named: name)
        }
        return library
    }

    /// `values` rendered with template `name` (empty if the template were missing, which a test rules out).
    package static func render(_ values: Any, _ name: String) -> String {
        library?.render(values, withTemplate: name) ?? ""
    }

    /// A one-time code and its link, in plain text.
    static let codeText = """
        Your code to {{{action}}} at {{{issuer}}} is {{{code}}}.

        Or open this link on the device where you asked for it:
        {{{link}}}

        It works once, for {{{minutes}}} minutes. If you did not ask for it, ignore this email: nothing changes.

        """

    /// A one-time code and its link, in HTML.
    static let codeHTML = """
        <!doctype html><html><body style="font-family: system-ui, sans-serif">
        <p>Your code to {{action}} at {{issuer}} is</p>
        <p style="font-size: 28px; letter-spacing: 4px"><strong>{{code}}</strong></p>
        <p><a href="{{link}}">Or open this link on the device where you asked for it.</a></p>
        <p>It works once, for {{minutes}} minutes. If you did not ask for it, ignore this email: nothing changes.</p>
        </body></html>

        """

    /// To the owner of an address someone tried to create an account with, in plain text.
    static let signUpNoticeText = """
        Someone tried to create an account at {{{issuer}}} with this email address, which already has one.

        If it was you, sign in instead, or reset your password if you forgot it. If it was not, ignore this email:
        nothing changes.

        """

    /// To the owner of an address someone tried to create an account with, in HTML.
    static let signUpNoticeHTML = """
        <!doctype html><html><body style="font-family: system-ui, sans-serif">
        <p>Someone tried to create an account at {{issuer}} with this email address, which already has one.</p>
        <p>If it was you, sign in instead, or reset your password if you forgot it. If it was not, ignore this email:
        nothing changes.</p>
        </body></html>

        """

    /// A change to the account (``AccountNotices``), in plain text.
    static let accountNoticeText = """
        {{{change}}} at {{{issuer}}}.

        If it was you, there is nothing to do. If it was not, reset your password at once and check the ways you
        sign in.

        """

    /// A change to the account (``AccountNotices``), in HTML.
    static let accountNoticeHTML = """
        <!doctype html><html><body style="font-family: system-ui, sans-serif">
        <p>{{change}} at {{issuer}}.</p>
        <p>If it was you, there is nothing to do. If it was not, reset your password at once and check the ways you
        sign in.</p>
        </body></html>

        """
}
