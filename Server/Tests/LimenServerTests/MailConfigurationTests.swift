import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Mail settings")
struct MailConfigurationTests {
    static let secret = String(repeating: "s", count: 32)

    private func resolve(_ environment: [String: String], flags: ConfigurationFlags = ConfigurationFlags())
        throws(ConfigurationError) -> ServerConfiguration
    {
        try ServerConfiguration.resolve(flags: flags, environment: environment)
    }

    @Test("an https:// mail_url with LIMEN_MAIL_WEBHOOK_SECRET is a webhook signed with that secret")
    func webhook() throws {
        let configuration = try resolve([
            "LIMEN_MAIL_URL": "https://hooks.example/mail", "LIMEN_MAIL_WEBHOOK_SECRET": Self.secret,
        ])
        guard case .webhook(let endpoint) = configuration.mailTransport else {
            Issue.record("not a webhook")
            return
        }
        #expect(endpoint.host == "hooks.example" && endpoint.target == "/mail")
        #expect(configuration.mailWebhookSecret == Self.secret)
    }

    @Test(
        "refused, never echoing the secret: a webhook without a secret, a secret under 32 characters",
        arguments: [
            (["LIMEN_MAIL_URL": "https://hooks.example/mail"], "mail_url"),
            (["LIMEN_MAIL_WEBHOOK_SECRET": "short but secret value"], "LIMEN_MAIL_WEBHOOK_SECRET"),
        ] as [([String: String], String)]
    )
    func refused(environment: [String: String], key: String) throws {
        let error = try #require(throws: ConfigurationError.self) { try resolve(environment) }
        #expect(error.key == key)
        if let secret = environment["LIMEN_MAIL_WEBHOOK_SECRET"] {
            #expect(!(error.errorDescription ?? "").contains(secret))
        }
    }
}

@Suite("The log mailer only on loopback, and the email-code budgets, as settings")
struct MailSafetySettingsTests {
    @Test(
        "finding 11: off loopback the server refuses to start without an explicit mail_url, naming the setting",
        arguments: ["0.0.0.0", "192.0.2.7", "::", "limen.example"])
    func refusedOffLoopback(host: String) throws {
        let error = try #require(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(flags: ConfigurationFlags(["--host": host]), environment: [:])
        }
        #expect(error.key == "mail_url")
        #expect(error.errorDescription?.contains("log") == true)
        let chosen = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(["--host": host, "--mail-url": "smtp://127.0.0.1:25"]), environment: [:])
        #expect(chosen.mailTransport != .log)
        let explicitLog = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(["--host": host]), environment: ["LIMEN_MAIL_URL": "log:"])
        #expect(explicitLog.mailTransport == .log, "log: given explicitly is the operator's choice")
    }

    @Test(
        "finding 11: on loopback log: stays the default, so the two-command quick start works",
        arguments: [nil, "127.0.0.1", "::1", "localhost"])
    func loopbackDefault(host: String?) throws {
        let configuration = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(["--host": host]), environment: [:])
        #expect(configuration.mailTransport == .log)
    }

    @Test("the email-code budgets are read from a flag, a variable or the file, and refused naming the key")
    func budgets() throws {
        let defaults = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [:])
        #expect(defaults.emailCodeMailBudget == EmailCodeBudget(perHour: 5, perDay: 10))
        #expect(defaults.emailCodeTryBudget == EmailCodeBudget(perHour: 10, perDay: 20))
        let set = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(["--email-code-mail-budget": "3/h, 4/d"]),
            environment: ["LIMEN_EMAIL_CODE_TRY_BUDGET": "6/h,12/d"])
        #expect(set.emailCodeMailBudget == EmailCodeBudget(perHour: 3, perDay: 4))
        #expect(set.emailCodeTryBudget == EmailCodeBudget(perHour: 6, perDay: 12))
        for bad in ["5/h", "0/h,10/d", "5/d,10/h", "five/h,10/d"] {
            let error = try #require(throws: ConfigurationError.self) {
                try ServerConfiguration.resolve(
                    flags: ConfigurationFlags(), environment: ["LIMEN_EMAIL_CODE_MAIL_BUDGET": bad])
            }
            #expect(error.key == "LIMEN_EMAIL_CODE_MAIL_BUDGET")
        }
    }
}
