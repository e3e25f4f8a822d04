import Foundation

/// The SMS that carries a one-time code: one short sentence, then the origin-bound line (`@host #code`) that lets iOS
/// and Android offer the code for autofill only on that domain (WICG's origin-bound one-time codes; WebOTP).
package enum SMSMessages {
    /// What an SMS code is for, as the webhook's `purpose` says it.
    package static let signInPurpose = "sign-in"

    /// The SMS carrying `code` to `phone` for a sign-in at `issuer`.
    package static func code(_ code: String, to phone: String, issuer: String) -> MailMessage {
        let host = URLComponents(string: issuer)?.host ?? issuer
        let minutes = Int(EmailCodes.lifetime / 60)
        return MailMessage(
            to: phone, subject: "",
            text: "Your \(host) code is \(code). It works for \(minutes) minutes.\n\n@\(host) #\(code)",
            html: "", kind: .code, purpose: signInPurpose, code: code, channel: .sms)
    }
}
