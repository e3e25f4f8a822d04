extension ServerSetting {
    /// `metrics_token`: the bearer token `/metrics` asks for; a token alone means `metrics: token`. Read before
    /// ``metrics``, which checks that the two agree.
    static let metricsToken = ServerSetting(
        "metrics_token",
        help: "The bearer token /metrics asks for, at least \(MetricsAccess.minimumTokenLength) characters.",
        isSecret: true
    ) { value, configuration throws(ConfigurationError) in
        configuration.metricsAccess = .bearer(
            try value.secret(atLeast: MetricsAccess.minimumTokenLength, named: "token"))
    }

    /// `metrics`: who may read `/metrics`.
    static let metrics = ServerSetting(
        "metrics", help: "Who may read /metrics: loopback, token (with LIMEN_METRICS_TOKEN), public or off.",
        default: "loopback"
    ) { value, configuration throws(ConfigurationError) in
        let hasToken = if case .bearerToken = configuration.metricsAccess { true } else { false }
        switch (value.text.lowercased(), hasToken) {
        case ("token", true): return
        case ("token", false):
            throw value.refused("set the token in \(metricsToken.variable) (or metrics_token in the file)")
        case ("loopback", false): configuration.metricsAccess = .loopback
        case ("public", false): configuration.metricsAccess = .everyone
        case ("off", false): configuration.metricsAccess = .off
        case (let mode, _):
            throw value.refused(
                hasToken
                    ? "expected token (or nothing): a metrics token is set" : "expected loopback, token, public or off",
                showing: mode)
        }
    }
}
