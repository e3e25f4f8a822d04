import Foundation

extension ServerConfiguration {
    /// Sets the sign-in settings given as flags, variables or file keys: `sign_in_rate_limit` and `sign_up`.
    static func resolveSignIn(
        flags: ConfigurationFlags,
        pick: SettingLookup,
        into configuration: inout ServerConfiguration
    ) throws(ConfigurationError) {
        if let (value, key) = pick(
            flags.signInRateLimit, "--sign-in-rate-limit", EnvironmentKey.signInRateLimit, "sign_in_rate_limit")
        {
            configuration.signInRateLimit = try rateLimit(value, key: key)
        }
        if let (value, key) = pick(flags.signUp, "--sign-up", EnvironmentKey.signUp, "sign_up") {
            switch value.lowercased() {
            case "enabled", "on", "true": configuration.signUpEnabled = true
            case "disabled", "off", "false": configuration.signUpEnabled = false
            default: throw ConfigurationError(key: key, value: value, reason: "expected enabled or disabled")
            }
        }
    }

    /// A rate limit setting: `N/s` (N requests a second, in bursts of 3 N; N may be a fraction such as 0.5), or `off`
    /// for `nil`.
    static func rateLimit(_ value: String, key: String) throws(ConfigurationError) -> RateLimit? {
        if value == "off" { return nil }
        guard let limit = RateLimit(setting: value) else {
            throw ConfigurationError(key: key, value: value, reason: "expected requests per second like 20/s, or off")
        }
        return limit
    }
}
