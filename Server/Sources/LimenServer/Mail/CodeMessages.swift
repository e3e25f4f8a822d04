/// The emails that carry one-time codes, in plain text and HTML.
enum CodeMessages {
    /// The message carrying `code` to `email`, for `purpose` (`email-code` signs in, `password-reset` resets).
    static func message(code: String, to email: String, purpose: String, issuer: String) -> MailMessage {
        let action = purpose == "password-reset" ? "reset your password" : "sign in"
        let minutes = Int(EmailCodes.lifetime / 60)
        let text = """
            Your code to \(action) at \(issuer) is \(code).

            It works once, for \(minutes) minutes. If you did not ask for it, ignore this email: nothing changes.
            """
        let html = """
            <!doctype html><html><body style="font-family: system-ui, sans-serif">
            <p>Your code to \(action) at \(Responses.escape(issuer)) is</p>
            <p style="font-size: 28px; letter-spacing: 4px"><strong>\(code)</strong></p>
            <p>It works once, for \(minutes) minutes. If you did not ask for it, ignore this email: nothing changes.</p>
            </body></html>
            """
        return MailMessage(to: email, subject: "Your code: \(code)", text: text, html: html)
    }
}
