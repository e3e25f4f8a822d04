import Foundation

extension ServerConfiguration {
    /// One duration setting of ``TokenLifetimes``: where it is read from, its bounds and the lifetime it sets.
    private struct LifetimeSetting {
        /// The flag's value in ``ConfigurationFlags``.
        let flag: KeyPath<ConfigurationFlags, String?>
        /// The flag's name, for errors.
        let flagName: String
        /// The environment variable.
        let variable: String
        /// The configuration file key.
        let fileKey: String
        /// The values allowed, in seconds.
        let range: ClosedRange<TimeInterval>
        /// The lifetime it sets.
        let lifetime: WritableKeyPath<TokenLifetimes, TimeInterval>
    }

    /// The token lifetime settings, in the order they are read.
    private static var lifetimeSettings: [LifetimeSetting] {
        [
            LifetimeSetting(
                flag: \.accessTokenLifetime, flagName: "--access-token-ttl",
                variable: EnvironmentKey.accessTokenLifetime, fileKey: "access_token_ttl",
                range: TokenLifetimes.accessTokenRange, lifetime: \.accessToken),
            LifetimeSetting(
                flag: \.idTokenLifetime, flagName: "--id-token-ttl",
                variable: EnvironmentKey.idTokenLifetime, fileKey: "id_token_ttl",
                range: TokenLifetimes.idTokenRange, lifetime: \.idToken),
            LifetimeSetting(
                flag: \.refreshTokenLifetime, flagName: "--refresh-token-ttl",
                variable: EnvironmentKey.refreshTokenLifetime, fileKey: "refresh_token_ttl",
                range: TokenLifetimes.refreshTokenRange, lifetime: \.refreshToken),
            LifetimeSetting(
                flag: \.refreshReuseGrace, flagName: "--refresh-reuse-grace",
                variable: EnvironmentKey.refreshReuseGrace, fileKey: "refresh_reuse_grace",
                range: TokenLifetimes.refreshReuseGraceRange, lifetime: \.refreshReuseGrace),
            LifetimeSetting(
                flag: \.grantMaxLifetime, flagName: "--grant-max-lifetime",
                variable: EnvironmentKey.grantMaxLifetime, fileKey: "grant_max_lifetime",
                range: TokenLifetimes.grantMaxLifetimeRange, lifetime: \.grantMaxLifetime),
            LifetimeSetting(
                flag: \.anonymousUserLifetime, flagName: "--anonymous-user-ttl",
                variable: EnvironmentKey.anonymousUserLifetime, fileKey: "anonymous_user_ttl",
                range: TokenLifetimes.anonymousUserRange, lifetime: \.anonymousUser),
            // The former name first, so that the new one wins when both are given.
            LifetimeSetting(
                flag: \.accountDeletionMaxAge, flagName: "--account-deletion-max-age",
                variable: EnvironmentKey.accountDeletionMaxAge, fileKey: "account_deletion_max_age",
                range: TokenLifetimes.accountChangeMaxAgeRange, lifetime: \.accountChangeMaxAge),
            LifetimeSetting(
                flag: \.accountChangeMaxAge, flagName: "--account-change-max-age",
                variable: EnvironmentKey.accountChangeMaxAge, fileKey: "account_change_max_age",
                range: TokenLifetimes.accountChangeMaxAgeRange, lifetime: \.accountChangeMaxAge),
        ]
    }

    /// Sets the token lifetimes given as flags, variables or file keys, each a duration within its bounds.
    static func resolveLifetimes(
        flags: ConfigurationFlags,
        pick: SettingLookup,
        into configuration: inout ServerConfiguration
    ) throws(ConfigurationError) {
        for setting in lifetimeSettings {
            let source = pick(flags[keyPath: setting.flag], setting.flagName, setting.variable, setting.fileKey)
            guard let (value, key) = source else { continue }
            guard let seconds = DurationSetting.seconds(in: value), setting.range.contains(seconds) else {
                let lowest = DurationSetting.text(for: setting.range.lowerBound)
                let highest = DurationSetting.text(for: setting.range.upperBound)
                throw ConfigurationError(
                    key: key, value: value,
                    reason: "expected a duration like 600, 45s, 10m, 12h or 30d, from \(lowest) to \(highest)")
            }
            configuration.tokenLifetimes[keyPath: setting.lifetime] = seconds
        }
    }

    /// Sets scrypt's cost for new password hashes: log2 N and p within their bounds, together no cheaper than OWASP's
    /// minimum (stored hashes keep their own parameters and keep verifying).
    static func resolvePasswordHashing(
        flags: ConfigurationFlags,
        pick: SettingLookup,
        into configuration: inout ServerConfiguration
    ) throws(ConfigurationError) {
        typealias Parameters = PasswordHasher.Parameters
        var parameters = configuration.passwordHashing
        let logN = try pick.integer(
            flags.passwordHashLogN, "--password-hash-log-n", EnvironmentKey.passwordHashLogN, "password_hash_log_n",
            in: Parameters.settableLogN, expected: "log2 of scrypt's N")
        if let logN { parameters.logN = logN.value }
        let parallelism = try pick.integer(
            flags.passwordHashParallelism, "--password-hash-parallelism", EnvironmentKey.passwordHashParallelism,
            "password_hash_parallelism", in: Parameters.settableParallelism, expected: "scrypt's parallelism")
        if let parallelism { parameters.parallelism = parallelism.value }
        if let (_, key, value) = parallelism ?? logN, !parameters.meetsOWASPMinimum {
            let least = Parameters.owaspMinimumParallelism(logN: parameters.logN).map { "\($0)" } ?? "?"
            throw ConfigurationError(
                key: key, value: value,
                reason: "scrypt with N = 2^\(parameters.logN) needs parallelism \(least) or more (OWASP minimum)")
        }
        configuration.passwordHashing = parameters
    }
}
