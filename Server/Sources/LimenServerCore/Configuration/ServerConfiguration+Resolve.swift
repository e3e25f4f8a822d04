import Foundation

extension ServerConfiguration {
    /// The environment variables of the nested settings, and of the configuration file; each plain setting's is
    /// ``ServerSetting/variable``.
    public enum EnvironmentKey {
        /// The issuers whose tokens `/token` exchanges (RFC 8693), as the file's `trusted_issuers` list in JSON.
        public static let trustedIssuers = "LIMEN_TRUSTED_ISSUERS"
        /// Sign in with Apple, as the file's `apple` mapping in JSON (`{"bundle_ids": ["com.example.app"]}`).
        public static let apple = "LIMEN_APPLE"
        /// The upstream OpenID providers of the hosted pages, as the file's `identity_providers` list in JSON (a safer
        /// place than the file for their client secrets).
        public static let identityProviders = "LIMEN_IDENTITY_PROVIDERS"
        /// A YAML or JSON configuration file.
        public static let configFile = "LIMEN_CONFIG"
    }

    /// The configuration from flags, then environment variables, then the configuration file (`--config` or
    /// `LIMEN_CONFIG`), then defaults; a bad value is an error naming the flag, variable or file key it came from.
    ///
    /// ```swift
    /// let configuration = try ServerConfiguration.resolve(flags: flags, environment: ProcessInfo.processInfo.environment)
    /// ```
    public static func resolve(
        flags: ConfigurationFlags,
        environment: [String: String]
    ) throws(ConfigurationError) -> ServerConfiguration {
        let file = try (flags.configFile ?? environment[EnvironmentKey.configFile]).map {
            path throws(ConfigurationError) in try ConfigurationFile.load(path: path)
        }
        let lookup = SettingLookup(flags: flags, environment: environment, file: file)
        var configuration = ServerConfiguration()
        var given: [String: SettingValue] = [:]
        for setting in ServerSetting.all {
            guard let value = lookup(setting) else { continue }
            try setting.apply(value, &configuration)
            given[setting.fileKey] = value
        }
        try configuration.checkMail(given: given)
        try configuration.checkPasswordHashing(given: given)
        try configuration.checkWebAuthn(given: given)
        configuration.profileSchema = file?.profileSchema
        if let text = environment[EnvironmentKey.trustedIssuers] {
            configuration.trustedIssuers = try TrustedIssuer.list(parsing: text, key: EnvironmentKey.trustedIssuers)
        } else if let issuers = file?.trustedIssuers {
            configuration.trustedIssuers = issuers
        }
        if let text = environment[EnvironmentKey.apple] {
            configuration.apple = try AppleSignIn(parsing: text, key: EnvironmentKey.apple)
        } else if let apple = file?.apple {
            configuration.apple = apple
        }
        if let text = environment[EnvironmentKey.identityProviders] {
            configuration.identityProviders = try IdentityProvider.list(
                parsing: text, key: EnvironmentKey.identityProviders)
        } else if let providers = file?.identityProviders {
            configuration.identityProviders = providers
        }
        return configuration
    }

    /// Why `issuer` cannot be an issuer identifier (OpenID Connect Discovery §3, RFC 8414 §2), or `nil` if it can.
    static func issuerProblem(_ issuer: String) -> String? {
        guard let components = URLComponents(string: issuer), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { return "expected an absolute URL such as https://id.example.com" }
        guard components.query == nil, components.fragment == nil else { return "an issuer has no query or fragment" }
        guard !issuer.hasSuffix("/") else { return "an issuer has no trailing slash" }
        let loopback = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && loopback) else {
            return "the issuer must use https (http only on a loopback host)"
        }
        return nil
    }
}
