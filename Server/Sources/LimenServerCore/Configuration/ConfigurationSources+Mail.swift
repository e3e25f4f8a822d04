import Foundation

extension ServerConfiguration {
    /// Sets where mail goes: `mail_url` (required unless the server listens on loopback, where `log:` is the default),
    /// `mail_from`, `mail_ca_file`, `mail_webhook_secret` (variable or file key
    /// only: a flag's value is visible to every user of the machine; required with an `https://` webhook, never
    /// echoed), `email_code_length`, `email_code_mail_budget` and `email_code_try_budget`.
    static func resolveMail(
        flags: ConfigurationFlags,
        pick: SettingLookup,
        into configuration: inout ServerConfiguration
    ) throws(ConfigurationError) {
        if let (value, key) = pick(flags.mailURL, "--mail-url", EnvironmentKey.mailURL, "mail_url") {
            // The URL may hold a password: the error names the setting, never the value.
            guard let transport = MailTransport(url: value) else {
                throw ConfigurationError(
                    key: key, value: "(not shown)",
                    reason: "expected log:, smtp://host:port (no password), smtp+starttls://user:password@host:587, "
                        + "smtps://user:password@host:465 or https://host/path (no user, no fragment)")
            }
            configuration.mailTransport = transport
        } else if !MetricsAccess.isLoopback(configuration.host), configuration.host != "localhost" {
            // The default writes every code and link to the log: acceptable on a developer's machine only.
            throw ConfigurationError(
                key: "mail_url", value: "(not set)",
                reason: "required when the server listens on \(configuration.host), which is not loopback: without "
                    + "it, codes and links would go to the log (set log: explicitly to accept that)")
        }
        if let (value, key) = pick(flags.mailFrom, "--mail-from", EnvironmentKey.mailFrom, "mail_from") {
            guard Accounts.isPlausibleEmail(value) else {
                throw ConfigurationError(key: key, value: value, reason: "expected an email address")
            }
            configuration.mailFrom = value
        }
        if let (value, key) = pick(flags.mailCAFile, "--mail-ca-file", EnvironmentKey.mailCAFile, "mail_ca_file") {
            guard FileManager.default.isReadableFile(atPath: value) else {
                throw ConfigurationError(key: key, value: value, reason: "cannot read the file")
            }
            configuration.mailCAFile = value
        }
        if let (value, key) = pick(
            flags.emailCodeLength, "--email-code-length", EnvironmentKey.emailCodeLength, "email_code_length")
        {
            guard let length = Int(value), EmailCodes.lengths.contains(length) else {
                throw ConfigurationError(
                    key: key, value: value,
                    reason: "expected \(EmailCodes.lengths.lowerBound) to \(EmailCodes.lengths.upperBound) digits")
            }
            configuration.emailCodeLength = length
        }
        let budgets = [
            (
                flags.emailCodeMailBudget, "mail", EnvironmentKey.emailCodeMailBudget,
                \ServerConfiguration.emailCodeMailBudget
            ),
            (
                flags.emailCodeTryBudget, "try", EnvironmentKey.emailCodeTryBudget,
                \ServerConfiguration.emailCodeTryBudget
            ),
        ]
        for (flag, name, variable, path) in budgets {
            guard let (value, key) = pick(flag, "--email-code-\(name)-budget", variable, "email_code_\(name)_budget")
            else { continue }
            guard let budget = EmailCodeBudget(setting: value) else {
                throw ConfigurationError(key: key, value: value, reason: "expected per hour and per day, like 5/h,10/d")
            }
            configuration[keyPath: path] = budget
        }
        let secret = pick(nil, "", EnvironmentKey.mailWebhookSecret, "mail_webhook_secret")
        if let (value, key) = secret, value.count < WebhookSignature.minimumSecretLength {
            throw ConfigurationError(
                key: key, value: "(hidden)",
                reason: "expected a secret of at least \(WebhookSignature.minimumSecretLength) characters")
        }
        configuration.mailWebhookSecret = secret?.value
        if case .webhook = configuration.mailTransport, secret == nil {
            throw ConfigurationError(
                key: "mail_url", value: "(not shown)",
                reason: "a webhook needs its signing secret in \(EnvironmentKey.mailWebhookSecret) "
                    + "(or mail_webhook_secret in the file)")
        }
    }
}
