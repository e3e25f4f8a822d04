import Foundation

/// The emails that carry one-time codes, in plain text and HTML from ``MailTemplates``, each with the link that
/// completes the same step on the device (``EmailLink``).
package enum CodeMessages {
    /// The message carrying `code` and `link` to `email`, for flow `purpose` (`email-code` signs in,
    /// `password-reset` resets a password, another flow continues).
    package static func message(code: String, link: String, to email: String, purpose: String, issuer: String)
        -> MailMessage
    {
        let values = CodeMessageValues(
            action: action(for: purpose), issuer: issuer, code: code, link: link,
            minutes: Int(EmailCodes.lifetime / 60))
        return MailMessage(
            to: email, subject: "Your code: \(code)", text: MailTemplates.render(values, "code.text"),
            html: MailTemplates.render(values, "code.html"), kind: .code, purpose: purpose, code: code, link: link)
    }

    /// The notice to the owner of `email` when someone asks to create an account with it: sign-up answers as for a
    /// new address, and only the owner learns the address is taken.
    package static func signUpNotice(to email: String, issuer: String) -> MailMessage {
        let values = ["issuer": issuer]
        return MailMessage(
            to: email, subject: "Someone tried to create an account with your address",
            text: MailTemplates.render(values, "sign-up-notice.text"),
            html: MailTemplates.render(values, "sign-up-notice.html"), kind: .notice, purpose: "sign-up")
    }

    /// What the code lets the person do, as the sentence "Your code to … at …" says it.
    package static func action(for purpose: String) -> String {
        switch purpose {
        case "email-code", "sign-in": "sign in"
        case "password-reset": "reset your password"
        case "sign-up": "confirm your email address"
        default: "continue"
        }
    }
}

/// The values of the code templates.
private struct CodeMessageValues {
    var action: String
    var issuer: String
    var code: String
    var link: String
    var minutes: Int
}
