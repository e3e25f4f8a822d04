import Foundation
import Testing

@testable import LimenServerCore

@Suite("Event webhook settings: allow_http_webhooks and webhook_timeout")
struct WebhookSettingsTests {
    @Test("http webhooks are off unless --allow-http-webhooks (alone or with a value) or the variable says so")
    func allowHTTP() throws {
        #expect(
            try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [:]).webhooks.allowsHTTPLoopback
                == false)
        for arguments in [["--allow-http-webhooks"], ["--allow-http-webhooks", "on"], ["--allow-http-webhooks=yes"]] {
            let flags = try ConfigurationFlags(arguments: arguments)
            let configuration = try ServerConfiguration.resolve(flags: flags, environment: [:])
            #expect(configuration.webhooks.allowsHTTPLoopback, "\(arguments)")
        }
        let flags = try ConfigurationFlags(arguments: ["--allow-http-webhooks", "--port", "0"])
        #expect(try ServerConfiguration.resolve(flags: flags, environment: [:]).port == 0)
        let variable = try ServerConfiguration.resolve(
            flags: ConfigurationFlags(), environment: ["LIMEN_ALLOW_HTTP_WEBHOOKS": "on"])
        #expect(variable.webhooks.allowsHTTPLoopback)
        #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(
                flags: ConfigurationFlags(), environment: ["LIMEN_ALLOW_HTTP_WEBHOOKS": "sometimes"])
        }
    }

    @Test("webhook_timeout takes 1 s to 2 min, 10 s by default")
    func timeout() throws {
        #expect(try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [:]).webhooks.timeout == 10)
        let flags = try ConfigurationFlags(arguments: ["--webhook-timeout", "30s"])
        #expect(try ServerConfiguration.resolve(flags: flags, environment: [:]).webhooks.timeout == 30)
        for value in ["0", "10m", "soon"] {
            #expect(throws: ConfigurationError.self, "\(value)") {
                try ServerConfiguration.resolve(
                    flags: ConfigurationFlags(), environment: ["LIMEN_WEBHOOK_TIMEOUT": value])
            }
        }
    }
}
