import Foundation

extension Configuration {
    /// Loads the provider and client settings from a JSON or property-list file (GrabID's `loadLoginSession`).
    ///
    /// Keys: `issuer` and `clientID` (required), `redirectURI`, `scopes` (array or space-separated string),
    /// `clientSecret`, `secretMethod`, `postLogoutRedirectURI`, `leeway`, `namespace`. Storage, transport and logger
    /// keep their defaults; set them on the returned value.
    /// - Throws: ``ConfigurationError`` naming the missing or invalid key.
    public init(contentsOf file: URL) throws(ConfigurationError) {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .unreadableFile(file.path)
        }
        let object: Any
        do {
            object =
                file.pathExtension.lowercased() == "plist"
                ? try PropertyListSerialization.propertyList(from: data, format: nil)
                : try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .unreadableFile(file.path)
        }
        guard let values = object as? [String: Any] else { throw .unreadableFile(file.path) }
        try self.init(values: values)
    }

    /// Builds a configuration from decoded key/value pairs, naming the key at fault.
    init(values: [String: Any]) throws(ConfigurationError) {
        let reader = ConfigurationValues(values)
        self.init(
            issuer: try reader.requiredURL("issuer"),
            clientID: try reader.requiredString("clientID"),
            redirectURI: try reader.url("redirectURI"),
            scopes: try reader.words("scopes") ?? Configuration.defaultScopes,
            clientSecret: try reader.string("clientSecret"),
            secretMethod: try reader.secretMethod("secretMethod") ?? .basic,
            postLogoutRedirectURI: try reader.url("postLogoutRedirectURI"),
            leeway: try reader.number("leeway") ?? 60,
            namespace: try reader.string("namespace") ?? "default"
        )
    }
}

/// Typed reads from a loosely typed dictionary, each failure naming its key.
private struct ConfigurationValues {
    let values: [String: Any]

    init(_ values: [String: Any]) { self.values = values }

    func string(_ key: String) throws(ConfigurationError) -> String? {
        guard let value = values[key] else { return nil }
        guard let string = value as? String, !string.isEmpty else {
            throw .invalidValue(key: key, reason: "expected a non-empty string")
        }
        return string
    }

    func requiredString(_ key: String) throws(ConfigurationError) -> String {
        guard let value = try string(key) else { throw .missingKey(key) }
        return value
    }

    func url(_ key: String) throws(ConfigurationError) -> URL? {
        guard let string = try string(key) else { return nil }
        guard let url = URL(string: string), url.scheme != nil else {
            throw .invalidValue(key: key, reason: "expected an absolute URL")
        }
        return url
    }

    func requiredURL(_ key: String) throws(ConfigurationError) -> URL {
        guard let value = try url(key) else { throw .missingKey(key) }
        return value
    }

    func words(_ key: String) throws(ConfigurationError) -> [String]? {
        guard let value = values[key] else { return nil }
        if let list = value as? [String] { return list }
        if let string = value as? String { return string.split(separator: " ").map(String.init) }
        throw .invalidValue(key: key, reason: "expected an array of strings or a space-separated string")
    }

    func number(_ key: String) throws(ConfigurationError) -> TimeInterval? {
        guard let value = values[key] else { return nil }
        guard let number = value as? NSNumber, !(value is Bool), number.doubleValue >= 0 else {
            throw .invalidValue(key: key, reason: "expected a non-negative number")
        }
        return number.doubleValue
    }

    func secretMethod(_ key: String) throws(ConfigurationError) -> Configuration.SecretMethod? {
        guard let string = try string(key) else { return nil }
        guard let method = Configuration.SecretMethod(rawValue: string) else {
            throw .invalidValue(key: key, reason: "expected client_secret_basic or client_secret_post")
        }
        return method
    }
}
