import Foundation

extension ServerConfiguration {
    /// Sets the sign-in settings given as flags, variables or file keys: `sign_in_rate_limit`, `sign_up` and `flows`
    /// (the files are read, and refused naming what is wrong, when the provider starts).
    static func resolveSignIn(
        flags: ConfigurationFlags,
        pick: SettingLookup,
        into configuration: inout ServerConfiguration
    ) throws(ConfigurationError) {
        if let limit = try pick.rateLimit(
            flags.signInRateLimit, "--sign-in-rate-limit", EnvironmentKey.signInRateLimit, "sign_in_rate_limit")
        {
            configuration.signInRateLimit = limit
        }
        if let (value, key) = pick(flags.signUp, "--sign-up", EnvironmentKey.signUp, "sign_up") {
            switch value.lowercased() {
            case "enabled", "on", "true": configuration.signUpEnabled = true
            case "disabled", "off", "false": configuration.signUpEnabled = false
            default: throw ConfigurationError(key: key, value: value, reason: "expected enabled or disabled")
            }
        }
        let flowFlags = flags.flows.flatMap { $0.isEmpty ? nil : $0.joined(separator: ",") }
        if let (value, _) = pick(flowFlags, "--flow", EnvironmentKey.flows, "flows") {
            configuration.flowFiles = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
        }
    }
}
