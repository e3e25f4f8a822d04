import Foundation

extension ServerSetting {
    /// `sms_url`: where one-time codes sent by SMS go.
    static let smsURL = ServerSetting(
        "sms_url",
        help: "Where codes sent by SMS go: log: (the server log, not sent) or an https:// webhook signed with "
            + "LIMEN_SMS_WEBHOOK_SECRET.",
        default: "log:", hiddenValue: "(not shown)"
    ) { value, configuration throws(ConfigurationError) in
        guard let transport = SMSTransport(url: value.text) else {
            throw value.refused("expected log: or https://host/path (no user, no fragment)")
        }
        configuration.smsTransport = transport
    }

    /// `sms_webhook_secret`: the key that signs the SMS webhook's POSTs.
    static let smsWebhookSecret = ServerSetting(
        "sms_webhook_secret",
        help: "The key that signs SMS webhook POSTs, at least \(WebhookSignature.minimumSecretLength) characters.",
        isSecret: true
    ) { value, configuration throws(ConfigurationError) in
        configuration.smsWebhookSecret = try value.secret(
            atLeast: WebhookSignature.minimumSecretLength, named: "secret")
    }

    /// `sms_countries`: the country calling codes codes may be sent to.
    static let smsCountries = ServerSetting(
        "sms_countries",
        help: "The country calling codes SMS codes may be sent to, like 1,44,49 (default: all); the others are "
            + "refused, which limits SMS pumping fraud.",
        isList: true
    ) { value, configuration throws(ConfigurationError) in
        var codes: [Int] = []
        for item in value.items {
            guard item.count <= 3, let code = Int(item), (1...999).contains(code) else {
                throw value.refused("expected country calling codes from 1 to 999, separated by commas", showing: item)
            }
            codes.append(code)
        }
        configuration.smsCountries = codes.isEmpty ? nil : codes
    }

    /// `sms_code_length`: the digits of a one-time code sent by SMS.
    static let smsCodeLength = codeLength("sms_code_length", sentBy: "SMS", setting: \.smsCodeLength)
}
