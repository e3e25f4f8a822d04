import Configuration

/// Finds a setting's value: its flag, else its environment variable (through swift-configuration's
/// `EnvironmentVariablesProvider`, which hides the secrets' values from its descriptions), else its configuration
/// file key.
struct SettingLookup {
    /// The command line's settings.
    let flags: ConfigurationFlags
    /// The process environment, under the `LIMEN` prefix.
    let environment: KeyMappingProvider<EnvironmentVariablesProvider>
    /// The configuration file, if one was given.
    let file: ConfigurationFile?

    /// A lookup in `flags`, the variables of `environment` and `file`.
    init(flags: ConfigurationFlags, environment: [String: String], file: ConfigurationFile?) {
        let secrets = Set(ServerSetting.all.filter { $0.flag == nil }.map(\.variable))
        self.flags = flags
        self.environment = EnvironmentVariablesProvider(
            environmentVariables: environment, secretsSpecifier: .specific(secrets)
        ).prefixKeys(with: ConfigKey([ServerSetting.variablePrefix]))
        self.file = file
    }

    /// The value of `setting` and where it came from, or `nil` when it is not given.
    func callAsFunction(_ setting: ServerSetting) -> SettingValue? {
        if let text = flags.value(of: setting), let flag = setting.flag {
            return SettingValue(text: text, key: flag, hiddenValue: setting.hiddenValue)
        }
        // The provider throws only for a value of another type; a string is always one.
        if let found = try? environment.value(forKey: AbsoluteConfigKey([setting.fileKey]), type: .string),
            case .string(let text)? = found.value?.content
        {
            return SettingValue(text: text, key: found.encodedKey, hiddenValue: setting.hiddenValue)
        }
        if let file, let text = file.values[setting.fileKey] {
            return SettingValue(text: text, key: "\(file.path): \(setting.fileKey)", hiddenValue: setting.hiddenValue)
        }
        return nil
    }
}
