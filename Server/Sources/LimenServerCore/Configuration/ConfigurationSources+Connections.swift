import Foundation

extension ServerConfiguration {
    /// One duration setting of ``ConnectionTimeouts``: where it is read from, its bounds and the timeout it sets.
    private struct TimeoutSetting {
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
        /// The timeout it sets.
        let timeout: WritableKeyPath<ConnectionTimeouts, TimeInterval>
    }

    /// The connection timeout settings, in the order they are read.
    private static var timeoutSettings: [TimeoutSetting] {
        [
            TimeoutSetting(
                flag: \.headerReadTimeout, flagName: "--header-read-timeout",
                variable: EnvironmentKey.headerReadTimeout, fileKey: "header_read_timeout",
                range: ConnectionTimeouts.headerReadRange, timeout: \.headerRead),
            TimeoutSetting(
                flag: \.idleTimeout, flagName: "--idle-timeout", variable: EnvironmentKey.idleTimeout,
                fileKey: "idle_timeout", range: ConnectionTimeouts.idleRange, timeout: \.idle),
        ]
    }

    /// Sets the connection timeouts given as flags, variables or file keys, each a duration within its bounds.
    static func resolveConnectionTimeouts(
        flags: ConfigurationFlags,
        pick: SettingLookup,
        into configuration: inout ServerConfiguration
    ) throws(ConfigurationError) {
        for setting in timeoutSettings {
            let source = pick(flags[keyPath: setting.flag], setting.flagName, setting.variable, setting.fileKey)
            guard let (value, key) = source else { continue }
            guard let seconds = DurationSetting.seconds(in: value), setting.range.contains(seconds) else {
                let lowest = DurationSetting.text(for: setting.range.lowerBound)
                let highest = DurationSetting.text(for: setting.range.upperBound)
                throw ConfigurationError(
                    key: key, value: value,
                    reason: "expected a duration like 30 or 30s, from \(lowest) to \(highest)")
            }
            configuration.connectionTimeouts[keyPath: setting.timeout] = seconds
        }
    }
}
