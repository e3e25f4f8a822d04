extension ServerSetting {
    /// The settings part of `limen-server serve --help`: one paragraph per setting, its flag (none for a secret),
    /// variable and file key, then what it sets and its default. Former names are left out.
    public static var helpText: String {
        let settings = all.filter { !$0.isHidden }.map { setting in
            let names = [setting.flag.map { "\($0) <value>" }, setting.variable, setting.fileKey].compactMap { $0 }
            let repeated = setting.isList ? " Repeat the flag for several; comma-separated elsewhere." : ""
            let byDefault = setting.defaultValue.map { " Default: \($0)." } ?? ""
            return names.joined(separator: " | ") + "\n  " + setting.help + repeated + byDefault
        }
        return "Settings (flag | variable | file key):\n" + settings.joined(separator: "\n")
    }
}
