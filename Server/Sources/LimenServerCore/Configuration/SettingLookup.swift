import Foundation

/// Finds one setting's value: the flag, else the environment variable, else the configuration file's key.
struct SettingLookup {
    /// The process environment.
    package let environment: [String: String]
    /// The configuration file, if one was given.
    package let file: ConfigurationFile?

    /// The value and the name of the key it came from (for errors), or `nil` when the setting is not given.
    func callAsFunction(
        _ flag: String?,
        _ flagName: String,
        _ variable: String,
        _ fileKey: String
    ) -> (value: String, key: String)? {
        if let flag { return (flag, flagName) }
        if let value = environment[variable] { return (value, variable) }
        if let file, let value = file.values[fileKey] { return (value, "\(file.path): \(fileKey)") }
        return nil
    }

    /// A whole number within `range` and the key it came from, `nil` when not given; anything else is an error
    /// saying it expected `what` within the range.
    func integer(
        _ flag: String?,
        _ flagName: String,
        _ variable: String,
        _ fileKey: String,
        in range: ClosedRange<Int>,
        expected what: String
    ) throws(ConfigurationError) -> (value: Int, key: String, text: String)? {
        guard let (text, key) = self(flag, flagName, variable, fileKey) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw ConfigurationError(
                key: key, value: text, reason: "expected \(what) from \(range.lowerBound) to \(range.upperBound)")
        }
        return (value, key, text)
    }

    /// A rate limit `N/s`, or `.some(nil)` for `off`; `nil` when the setting is not given.
    func rateLimit(
        _ flag: String?,
        _ flagName: String,
        _ variable: String,
        _ fileKey: String
    ) throws(ConfigurationError) -> RateLimit?? {
        guard let (value, key) = self(flag, flagName, variable, fileKey) else { return nil }
        if value == "off" { return .some(nil) }
        guard let limit = RateLimit(setting: value) else {
            throw ConfigurationError(key: key, value: value, reason: "expected requests per second like 20/s, or off")
        }
        return limit
    }
}
