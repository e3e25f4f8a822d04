import Foundation

extension Configuration {
    /// Loads the provider and client settings from a JSON or property-list file (GrabID's `loadLoginSession`).
    ///
    /// Keys: `issuer` and `clientID` (required), `redirectURI`, `scopes` (array or space-separated string),
    /// `clientSecret`, `secretMethod`, `postLogoutRedirectURI`, `leeway`, `namespace`, and `pinning` (see
    /// ``CertificatePinning``): a dictionary from host name to a dictionary of `pins` (an array of at least two pins),
    /// optionally `expires` (a date, or an ISO 8601 string in JSON) and `mode` (`enforce`, the default, or
    /// `reportOnly`):
    ///
    /// ```json
    /// "pinning": {
    ///     "id.example.com": {
    ///         "pins": ["sha256/…current key…", "sha256/…backup key…"],
    ///         "expires": "2027-06-30T00:00:00Z"
    ///     }
    /// }
    /// ```
    ///
    /// Storage, transport and logger keep their defaults; set them on the returned value.
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
            namespace: try reader.string("namespace") ?? "default",
            pinning: try reader.pinning("pinning") ?? CertificatePinning()
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

    /// `key`'s hosts and their pins; a pin's own problem is reported as ``ConfigurationError/pinNotBase64(_:)`` and
    /// the like, a value of the wrong type under the key path (`pinning.id.example.com.pins`).
    func pinning(_ key: String) throws(ConfigurationError) -> CertificatePinning? {
        guard let value = values[key] else { return nil }
        guard let hosts = value as? [String: Any] else {
            throw .invalidValue(key: key, reason: "expected a dictionary from host name to its pins")
        }
        var pinned: [PinnedHost] = []
        for (host, entry) in hosts.sorted(by: { $0.key < $1.key }) {
            guard let fields = entry as? [String: Any] else {
                throw .invalidValue(key: "\(key).\(host)", reason: "expected a dictionary with pins")
            }
            let reader = ConfigurationValues(fields)
            guard let pins = fields["pins"] as? [String] else {
                throw .invalidValue(key: "\(key).\(host).pins", reason: "expected an array of strings")
            }
            var mode = PinningMode.enforce
            if let name = fields["mode"] {
                guard let text = name as? String, let parsed = PinningMode(rawValue: text) else {
                    throw .invalidValue(key: "\(key).\(host).mode", reason: "expected enforce or reportOnly")
                }
                mode = parsed
            }
            let expires = try reader.date("expires", in: "\(key).\(host)")
            pinned.append(try PinnedHost(host, pins: pins, expires: expires, mode: mode))
        }
        return try CertificatePinning(pinned)
    }

    /// A date, given as such (property lists) or as an ISO 8601 string (JSON); `path` names its dictionary in errors.
    func date(_ key: String, in path: String) throws(ConfigurationError) -> Date? {
        guard let value = values[key] else { return nil }
        if let date = value as? Date { return date }
        guard let text = value as? String, let date = try? Date(text, strategy: .iso8601) else {
            throw .invalidValue(key: "\(path).\(key)", reason: "expected a date or an ISO 8601 string")
        }
        return date
    }

    func secretMethod(_ key: String) throws(ConfigurationError) -> Configuration.SecretMethod? {
        guard let string = try string(key) else { return nil }
        guard let method = Configuration.SecretMethod(rawValue: string) else {
            throw .invalidValue(key: key, reason: "expected client_secret_basic or client_secret_post")
        }
        return method
    }
}
