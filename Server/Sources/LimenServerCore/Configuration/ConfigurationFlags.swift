/// The settings given on the command line, by flag (`--port`), each with its values in the order given.
///
/// ```swift
/// let flags = try ConfigurationFlags(arguments: ["--port", "0", "--resource=https://api.example"])
/// let configuration = try ServerConfiguration.resolve(flags: flags, environment: [:])
/// ```
public struct ConfigurationFlags: Sendable, Equatable {
    /// The flag naming the configuration file, which is not a setting: a file cannot name another.
    public static let configFileFlag = "--config"

    /// The values given, by flag.
    public private(set) var values: [String: [String]] = [:]

    /// The configuration file (`--config`), if one was given.
    public var configFile: String? { values[Self.configFileFlag]?.last }

    /// The flags of `pairs`, written in code; a `nil` value is a flag not given. A flag that is no setting's is a
    /// mistake in that code and stops the program (``init(arguments:)`` throws for one a person typed).
    public init(_ pairs: KeyValuePairs<String, String?> = [:]) {
        for case (let flag, let value?) in pairs {
            precondition(Self.knownFlags.contains(flag), "\(flag) is no setting's flag")
            values[flag, default: []].append(value)
        }
    }

    /// Every setting's flag and `--config`.
    private static let knownFlags = Set(ServerSetting.all.compactMap(\.flag) + [configFileFlag])

    /// The flags of on/off settings that are off unless given: such a flag alone (`--allow-http-webhooks`) means `on`.
    private static let switchFlags = Set(ServerSetting.all.filter { $0.defaultValue == "off" }.compactMap(\.flag))

    /// The flags of `arguments`, each `--flag value` or `--flag=value` (an off-by-default switch also alone, meaning
    /// `on`); a flag that is no setting's (or a secret's, which has none), or that has no value, is an error.
    public init(arguments: [String]) throws(ConfigurationError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            let (flag, inline) = Self.split(argument)
            guard Self.knownFlags.contains(flag) else {
                throw ConfigurationError(key: flag, value: "", reason: "unknown option; see limen-server serve --help")
            }
            if let inline {
                values[flag, default: []].append(inline)
            } else if let value = remaining.first, !value.hasPrefix("--") {
                values[flag, default: []].append(value)
                remaining = remaining.dropFirst()
            } else if Self.switchFlags.contains(flag) {
                values[flag, default: []].append("on")
            } else {
                throw ConfigurationError(key: flag, value: "", reason: "expected a value after it")
            }
        }
    }

    /// The value a setting's flag gives: the last one given, or a list's values joined by commas.
    func value(of setting: ServerSetting) -> String? {
        guard let flag = setting.flag, let given = values[flag], !given.isEmpty else { return nil }
        return setting.isList ? given.joined(separator: ",") : given.last
    }

    /// `--flag=value` as the flag and the value; `--flag` as the flag and `nil`.
    private static func split(_ argument: String) -> (flag: String, value: String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
