import Testing

@testable import LimenServer

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
