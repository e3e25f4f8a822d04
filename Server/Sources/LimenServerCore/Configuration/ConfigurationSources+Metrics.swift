import Foundation

extension ServerConfiguration {
    /// Sets who may read `/metrics` from `metrics` (flag, variable or file key) and `metrics_token` (variable or file
    /// key only: a flag's value is visible to every user of the machine). A token alone means `token`; a token is never
    /// echoed in an error.
    static func resolveMetrics(
        flags: ConfigurationFlags,
        pick: SettingLookup,
        into configuration: inout ServerConfiguration
    ) throws(ConfigurationError) {
        let token = pick(nil, "", EnvironmentKey.metricsToken, "metrics_token")
        if let (value, key) = token, value.count < MetricsAccess.minimumTokenLength {
            throw ConfigurationError(
                key: key, value: "(hidden)",
                reason: "expected a token of at least \(MetricsAccess.minimumTokenLength) characters")
        }
        let mode = pick(flags.metrics, "--metrics", EnvironmentKey.metrics, "metrics")
        switch (mode?.value.lowercased(), token) {
        case (nil, nil):
            return
        case (nil, let (value, _)?), ("token", let (value, _)?):
            configuration.metricsAccess = .bearer(value)
        case ("token", nil):
            throw ConfigurationError(
                key: mode?.key ?? "metrics", value: "token",
                reason: "set the token in \(EnvironmentKey.metricsToken) (or metrics_token in the file)")
        case ("loopback", nil): configuration.metricsAccess = .loopback
        case ("public", nil): configuration.metricsAccess = .everyone
        case ("off", nil): configuration.metricsAccess = .off
        case (let value?, _):
            let expected =
                token == nil
                ? "expected loopback, token, public or off" : "expected token (or nothing): a metrics token is set"
            throw ConfigurationError(key: mode?.key ?? "metrics", value: value, reason: expected)
        }
    }
}
