import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("SMS settings")
struct SMSConfigurationTests {
    static let secret = String(repeating: "s", count: 32)

    private func resolve(_ environment: [String: String], flags: ConfigurationFlags = ConfigurationFlags())
        throws(ConfigurationError) -> ServerConfiguration
    {
        try ServerConfiguration.resolve(flags: flags, environment: environment)
    }

    @Test("by default codes go to the log, to every country, with six digits")
    func defaults() throws {
        let configuration = try resolve([:])
        #expect(configuration.smsTransport == .log)
        #expect(configuration.smsCountries == nil)
        #expect(configuration.smsCodeLength == 6)
    }

    @Test("an https:// sms_url with its secret, the countries and the length are read from flags and the environment")
    func read() throws {
        let configuration = try resolve(
            ["LIMEN_SMS_URL": "https://sms.example/send?token=t", "LIMEN_SMS_WEBHOOK_SECRET": Self.secret],
            flags: ConfigurationFlags(["--sms-countries": "1, 44,49", "--sms-code-length": "8"]))
        guard case .webhook(let endpoint) = configuration.smsTransport else {
            Issue.record("not a webhook")
            return
        }
        #expect(endpoint.host == "sms.example" && endpoint.target == "/send?token=t")
        #expect(configuration.smsWebhookSecret == Self.secret)
        #expect(configuration.smsCountries == [1, 44, 49])
        #expect(configuration.smsCodeLength == 8)
        #expect(ServerSetting.smsWebhookSecret.flag == nil, "a secret has no flag")
    }

    @Test(
        "refused naming the setting, never echoing the URL or the secret",
        arguments: [
            (["LIMEN_SMS_URL": "https://sms.example/send?token=hidden-token"], "sms_url"),
            (["LIMEN_SMS_URL": "http://sms.example/send?token=hidden-token"], "LIMEN_SMS_URL"),
            (["LIMEN_SMS_URL": "https://user:hidden-token@sms.example/"], "LIMEN_SMS_URL"),
            (["LIMEN_SMS_WEBHOOK_SECRET": "short hidden-token"], "LIMEN_SMS_WEBHOOK_SECRET"),
            (["LIMEN_SMS_COUNTRIES": "1,abc"], "LIMEN_SMS_COUNTRIES"),
            (["LIMEN_SMS_COUNTRIES": "1,1000"], "LIMEN_SMS_COUNTRIES"),
            (["LIMEN_SMS_COUNTRIES": "0"], "LIMEN_SMS_COUNTRIES"),
            (["LIMEN_SMS_CODE_LENGTH": "5"], "LIMEN_SMS_CODE_LENGTH"),
            (["LIMEN_SMS_CODE_LENGTH": "11"], "LIMEN_SMS_CODE_LENGTH"),
        ] as [([String: String], String)]
    )
    func refused(environment: [String: String], key: String) throws {
        let error = try #require(throws: ConfigurationError.self) { try resolve(environment) }
        #expect(error.key == key)
        #expect(!(error.errorDescription ?? "").contains("hidden-token"))
    }
}
