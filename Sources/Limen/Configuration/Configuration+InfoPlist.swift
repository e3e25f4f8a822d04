import Foundation

extension Configuration {
    /// The key of the dictionary in an app's Info.plist that holds Limen's settings.
    public static let infoPlistKey = "Limen"

    /// Loads the provider and client settings from the `Limen` dictionary of an app's Info.plist, as GrabID's
    /// `loadLoginSession` reads its own; the keys are those of ``init(contentsOf:)``.
    ///
    /// ```swift
    /// // Info.plist: <key>Limen</key><dict><key>issuer</key><string>https://id.example.com</string>…</dict>
    /// let configuration = try Configuration(infoDictionary: Bundle.main.infoDictionary ?? [:])
    /// ```
    /// - Throws: ``ConfigurationError/missingKey(_:)`` naming `Limen` when the dictionary is absent, and as
    ///   ``init(contentsOf:)`` for its keys.
    public init(infoDictionary: [String: Any]) throws(ConfigurationError) {
        guard let entry = infoDictionary[Self.infoPlistKey] else { throw .missingKey(Self.infoPlistKey) }
        guard let values = entry as? [String: Any] else {
            throw .invalidValue(key: Self.infoPlistKey, reason: "expected a dictionary")
        }
        try self.init(values: values)
    }
}
