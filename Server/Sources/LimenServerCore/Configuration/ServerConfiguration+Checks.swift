extension ServerConfiguration {
    /// Refuses what the mail settings `given` cannot do together: no `mail_url` on a host other than loopback (the
    /// default writes every code and link to the log), and a mail or SMS webhook without its signing secret.
    func checkMail(given: [String: SettingValue]) throws(ConfigurationError) {
        if given[ServerSetting.mailURL.fileKey] == nil, !MetricsAccess.isLoopback(host), host != "localhost" {
            throw ConfigurationError(
                key: ServerSetting.mailURL.fileKey, value: "(not set)",
                reason: "required when the server listens on \(host), which is not loopback: without "
                    + "it, codes and links would go to the log (set log: explicitly to accept that)")
        }
        if case .webhook = mailTransport, mailWebhookSecret == nil {
            throw Self.secretMissing(for: .mailURL, in: .mailWebhookSecret)
        }
        if case .webhook = smsTransport, smsWebhookSecret == nil {
            throw Self.secretMissing(for: .smsURL, in: .smsWebhookSecret)
        }
    }

    /// The refusal of webhook `url` without its signing secret `secret`.
    private static func secretMissing(for url: ServerSetting, in secret: ServerSetting) -> ConfigurationError {
        ConfigurationError(
            key: url.fileKey, value: "(not shown)",
            reason: "a webhook needs its signing secret in \(secret.variable) (or \(secret.fileKey) in the file)")
    }

    /// Refuses a scrypt cost for new password hashes cheaper than OWASP's minimum, naming the parallelism setting if
    /// given, else log2 N (stored hashes keep their own parameters and keep verifying).
    func checkPasswordHashing(given: [String: SettingValue]) throws(ConfigurationError) {
        let settings = [ServerSetting.passwordHashParallelism, .passwordHashLogN]
        guard let value = settings.lazy.compactMap({ given[$0.fileKey] }).first,
            !passwordHashing.meetsOWASPMinimum
        else { return }
        let least = PasswordHasher.Parameters.owaspMinimumParallelism(logN: passwordHashing.logN).map { "\($0)" } ?? "?"
        throw value.refused(
            "scrypt with N = 2^\(passwordHashing.logN) needs parallelism \(least) or more (OWASP minimum)")
    }
}
