extension ServerSetting {
    /// `post_rate_limit`: POSTs a second per client address.
    static let postRateLimit = rateLimit(
        "post_rate_limit", help: "POSTs a second per client address, like 20/s, or off.", default: "20/s",
        setting: \.postRateLimit)

    /// `sign_in_rate_limit`: sign-in and sign-up POSTs a second per client address.
    static let signInRateLimit = rateLimit(
        "sign_in_rate_limit", help: "Sign-in and sign-up POSTs a second per client address, like 1/s or 0.2/s, or off.",
        default: "1/s", setting: \.signInRateLimit)

    /// `authorize_rate_limit`: `/authorize` requests and flow starts a second per client address.
    static let authorizeRateLimit = rateLimit(
        "authorize_rate_limit",
        help: "/authorize requests and flow starts a second per client address, like 5/s, or off.",
        default: "5/s", setting: \.authorizeRateLimit)

    /// `sign_up`: whether people may create their own accounts.
    static let signUp = ServerSetting(
        "sign_up", help: "Whether people may create accounts: enabled or disabled.", default: "enabled"
    ) { value, configuration throws(ConfigurationError) in
        switch value.text.lowercased() {
        case "enabled", "on", "true": configuration.signUpEnabled = true
        case "disabled", "off", "false": configuration.signUpEnabled = false
        default: throw value.refused("expected enabled or disabled")
        }
    }

    /// `flows`: flow definition files (read, and refused naming what is wrong, when the server starts).
    static let flows = ServerSetting(
        "flows", flag: "--flow",
        help: "A flow definition file (YAML or JSON) that adds a flow or replaces a built-in one.",
        isList: true
    ) { value, configuration throws(ConfigurationError) in
        configuration.flowFiles = value.items
    }

    /// A rate limit setting applied to `path`.
    private static func rateLimit(
        _ fileKey: String,
        help: String,
        default defaultValue: String,
        setting path: any WritableKeyPath<ServerConfiguration, RateLimit?> & Sendable
    ) -> ServerSetting {
        ServerSetting(fileKey, help: help, default: defaultValue) { value, configuration throws(ConfigurationError) in
            configuration[keyPath: path] = try value.rateLimit()
        }
    }
}
