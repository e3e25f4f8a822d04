import Foundation

extension ServerSetting {
    /// `allow_http_webhooks`: whether event webhooks may post to loopback `http` URLs (development).
    static let allowHTTPWebhooks = ServerSetting(
        "allow_http_webhooks",
        help: "Whether event webhooks may post to http://127.0.0.1 or http://localhost (development): on or off.",
        default: "off"
    ) { value, configuration throws(ConfigurationError) in
        switch value.text.lowercased() {
        case "on", "true", "yes": configuration.webhooks.allowsHTTPLoopback = true
        case "off", "false", "no": configuration.webhooks.allowsHTTPLoopback = false
        default: throw value.refused("expected on or off")
        }
    }

    /// `webhook_timeout`: how long one webhook POST may take.
    static let webhookTimeout = duration(
        "webhook_timeout", help: "How long one event webhook POST may take before it is retried, like 10s",
        default: "10s", in: 1...120, like: "10, 10s or 1m", setting: \.webhooks.timeout)
}
