import LimenWire

/// The provisioning URI an authenticator app reads from a QR code (Google Authenticator's Key Uri Format):
/// `otpauth://totp/ISSUER:ACCOUNT?secret=BASE32&issuer=ISSUER&algorithm=SHA1&digits=6&period=30`.
///
/// The issuer and the account name are percent-encoded byte by byte (everything but RFC 3986's unreserved characters,
/// so a space is `%20`, never `+`), so a colon, space, `@`, `?`, `#`, `/` or non-ASCII letter in either stays part of
/// it: the label's only literal colon is the one between issuer and account.
///
/// ```swift
/// OTPAuthURI.make(for: totp, issuer: "Example", account: "ada@example.com")
/// // otpauth://totp/Example:ada%40example.com?secret=…&issuer=Example&algorithm=SHA1&digits=6&period=30
/// ```
package enum OTPAuthURI {
    /// The URI that provisions `totp` in an app, listed as `issuer` (the service) and `account` (the person's name,
    /// usually an email address). An empty issuer is left out of the label and the parameters.
    package static func make(for totp: TOTP, issuer: String, account: String) -> String {
        let label =
            issuer.isEmpty
            ? FormEncoding.escape(account) : "\(FormEncoding.escape(issuer)):\(FormEncoding.escape(account))"
        var parameters = [("secret", Base32.encode(totp.secret))]
        if !issuer.isEmpty { parameters.append(("issuer", issuer)) }
        parameters += [("algorithm", "SHA1"), ("digits", String(totp.digits)), ("period", String(totp.period))]
        return "otpauth://totp/\(label)?\(FormEncoding.encode(parameters))"
    }
}
