import Foundation

extension ServerSetting {
    /// `mail_url`: where mail goes (required unless the server listens on loopback; see
    /// ``ServerConfiguration/checkMail(given:)``).
    static let mailURL = ServerSetting(
        "mail_url",
        help: "Where mail goes: log:, smtp://host:port, smtp+starttls://user:password@host:587, "
            + "smtps://user:password@host:465 (the variable is safer for a password), or an https:// webhook signed "
            + "with LIMEN_MAIL_WEBHOOK_SECRET.",
        default: "log: on loopback", hiddenValue: "(not shown)"
    ) { value, configuration throws(ConfigurationError) in
        guard let transport = MailTransport(url: value.text) else {
            throw value.refused(
                "expected log:, smtp://host:port (no password), smtp+starttls://user:password@host:587, "
                    + "smtps://user:password@host:465 or https://host/path (no user, no fragment)")
        }
        configuration.mailTransport = transport
    }

    /// `mail_from`: the sender of the server's emails.
    static let mailFrom = ServerSetting(
        "mail_from", help: "The sender of the server's emails.", default: "limen@localhost"
    ) { value, configuration throws(ConfigurationError) in
        guard Accounts.isPlausibleEmail(value.text) else { throw value.refused("expected an email address") }
        configuration.mailFrom = value.text
    }

    /// `mail_ca_file`: CA certificates trusted for the SMTP server or webhook instead of the system's.
    static let mailCAFile = ServerSetting(
        "mail_ca_file", help: "CA certificates (PEM) trusted for the SMTP server or webhook instead of the system's."
    ) { value, configuration throws(ConfigurationError) in
        guard FileManager.default.isReadableFile(atPath: value.text) else {
            throw value.refused("cannot read the file")
        }
        configuration.mailCAFile = value.text
    }

    /// `mail_webhook_secret`: the key that signs webhook POSTs.
    static let mailWebhookSecret = ServerSetting(
        "mail_webhook_secret",
        help: "The key that signs webhook POSTs, at least \(WebhookSignature.minimumSecretLength) characters.",
        isSecret: true
    ) { value, configuration throws(ConfigurationError) in
        configuration.mailWebhookSecret = try value.secret(
            atLeast: WebhookSignature.minimumSecretLength, named: "secret")
    }

    /// `email_code_length`: the digits of a one-time code sent by email.
    static let emailCodeLength = codeLength("email_code_length", sentBy: "email", setting: \.emailCodeLength)

    /// `email_code_mail_budget`: the codes mailed per address and purpose.
    static let emailCodeMailBudget = budget(
        "email_code_mail_budget", help: "Codes mailed per address and purpose, like 5/h,10/d.", default: "5/h,10/d",
        setting: \.emailCodeMailBudget)

    /// `email_code_try_budget`: the codes tried per address and purpose.
    static let emailCodeTryBudget = budget(
        "email_code_try_budget", help: "Codes tried per address and purpose, like 10/h,20/d.", default: "10/h,20/d",
        setting: \.emailCodeTryBudget)

    /// The number of digits of a one-time code `sentBy` email or SMS, applied to `path`.
    static func codeLength(
        _ fileKey: String,
        sentBy medium: String,
        setting path: any WritableKeyPath<ServerConfiguration, Int> & Sendable
    ) -> ServerSetting {
        ServerSetting(
            fileKey, help: "Digits of a one-time code sent by \(medium), \(bounds(EmailCodes.lengths)).",
            default: "\(EmailCodes.defaultLength)"
        ) { value, configuration throws(ConfigurationError) in
            guard let length = Int(value.text), EmailCodes.lengths.contains(length) else {
                throw value.refused(
                    "expected \(EmailCodes.lengths.lowerBound) to \(EmailCodes.lengths.upperBound) digits")
            }
            configuration[keyPath: path] = length
        }
    }

    /// An email code budget applied to `path`.
    private static func budget(
        _ fileKey: String,
        help: String,
        default defaultValue: String,
        setting path: any WritableKeyPath<ServerConfiguration, EmailCodeBudget> & Sendable
    ) -> ServerSetting {
        ServerSetting(fileKey, help: help, default: defaultValue) { value, configuration throws(ConfigurationError) in
            guard let budget = EmailCodeBudget(setting: value.text) else {
                throw value.refused("expected per hour and per day, like 5/h,10/d")
            }
            configuration[keyPath: path] = budget
        }
    }
}
