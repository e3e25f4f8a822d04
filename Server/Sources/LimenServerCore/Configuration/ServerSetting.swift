import Foundation

/// One plain setting of the server, declared once: its key in the configuration file, the flag and the `LIMEN_`
/// variable derived from that key, what it is for, its default, whether its value may be shown, and how its text is
/// checked and applied (bounds included). ``all`` lists them; `limen-server serve --help` is written from them.
///
/// ```swift
/// ServerSetting.port.flag       // "--port"
/// ServerSetting.port.variable   // "LIMEN_PORT"
/// ```
///
/// The nested settings (`trusted_issuers`, `apple`, `identity_providers`, `profile_schema`) are not plain text and
/// are read by ``ConfigurationFile`` and their own parsers.
public struct ServerSetting: Sendable {
    /// The key in the configuration file (`post_rate_limit`).
    public let fileKey: String
    /// The command-line flag (`--post-rate-limit`); `nil` for a secret, which no flag may carry (every user of the
    /// machine can read a process's arguments).
    public let flag: String?
    /// The environment variable (`LIMEN_POST_RATE_LIMIT`).
    public let variable: String
    /// What it sets, one sentence for `--help`.
    public let help: String
    /// The default, as `--help` shows it; `nil` when there is none to show.
    public let defaultValue: String?
    /// What errors show instead of a value that may hold a secret (`(hidden)`); `nil` when the value may be shown.
    public let hiddenValue: String?
    /// Whether it is a list: its flag may be repeated, and its variable and file key hold comma-separated values (the
    /// file's key may also hold a YAML list).
    public let isList: Bool
    /// Whether `--help` leaves it out (a former name, still read).
    public let isHidden: Bool
    /// Checks the text found and applies it to the configuration.
    let apply: @Sendable (SettingValue, inout ServerConfiguration) throws(ConfigurationError) -> Void

    /// A setting of `fileKey`, whose flag is `--` and the key with dashes (or `flag`), and whose variable is `LIMEN_`
    /// and the key in capitals; `isSecret` gives it no flag and hides its value as `(hidden)`.
    init(
        _ fileKey: String,
        flag: String? = nil,
        help: String,
        default defaultValue: String? = nil,
        isSecret: Bool = false,
        hiddenValue: String? = nil,
        isList: Bool = false,
        isHidden: Bool = false,
        apply: @escaping @Sendable (SettingValue, inout ServerConfiguration) throws(ConfigurationError) -> Void
    ) {
        self.fileKey = fileKey
        self.flag = isSecret ? nil : flag ?? "--" + fileKey.replacingOccurrences(of: "_", with: "-")
        self.variable = Self.variablePrefix + "_" + fileKey.uppercased()
        self.help = help
        self.defaultValue = defaultValue
        self.hiddenValue = isSecret ? "(hidden)" : hiddenValue
        self.isList = isList
        self.isHidden = isHidden
        self.apply = apply
    }

    /// `range` for `--help`: `14–20`.
    static func bounds(_ range: ClosedRange<Int>) -> String { "\(range.lowerBound)–\(range.upperBound)" }

    /// What every variable of the server starts with, before an underscore.
    static let variablePrefix = "LIMEN"
}

/// The text a setting was given and where it came from, for its checks and their errors.
struct SettingValue {
    /// The text.
    let text: String
    /// Where it came from: the flag, the variable, or the file and its key (`limen.yaml: port`).
    let key: String
    /// What errors show instead of ``text``, if it may be secret.
    let hiddenValue: String?

    /// The entries of a comma-separated list, trimmed, empty ones left out.
    var items: [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// An error naming where the value came from, showing `value` (the whole text by default) unless it may be secret.
    func refused(_ reason: String, showing value: String? = nil) -> ConfigurationError {
        ConfigurationError(key: key, value: hiddenValue ?? value ?? text, reason: reason)
    }

    /// A whole number within `range`, or an error saying it expected `what` within the range.
    func integer(in range: ClosedRange<Int>, expected what: String) throws(ConfigurationError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw refused("expected \(what) from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A duration (``DurationSetting``) within `range`, in seconds; `like` gives the examples of the error.
    func duration(in range: ClosedRange<Double>, like examples: String) throws(ConfigurationError) -> Double {
        guard let seconds = DurationSetting.seconds(in: text), range.contains(seconds) else {
            let lowest = DurationSetting.text(for: range.lowerBound)
            let highest = DurationSetting.text(for: range.upperBound)
            throw refused("expected a duration like \(examples), from \(lowest) to \(highest)")
        }
        return seconds
    }

    /// The text, a secret of at least `length` characters (a `noun`: "secret", "token").
    func secret(atLeast length: Int, named noun: String) throws(ConfigurationError) -> String {
        guard text.count >= length else { throw refused("expected a \(noun) of at least \(length) characters") }
        return text
    }

    /// A rate limit `N/s`, or `nil` for `off`.
    func rateLimit() throws(ConfigurationError) -> RateLimit? {
        if text == "off" { return nil }
        guard let limit = RateLimit(setting: text) else {
            throw refused("expected requests per second like 20/s, or off")
        }
        return limit
    }
}
