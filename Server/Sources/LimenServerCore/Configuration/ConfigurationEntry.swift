import LimenWire

/// One mapping of a list setting (``ConfigurationList``), read member by member: every error names the entry's key
/// followed by the member (`identity_providers.1.client_id`) and never repeats a value that may be secret.
struct ConfigurationEntry {
    /// The members.
    package let members: [String: JSONValue]
    /// The entry's key, such as `limen.yaml: identity_providers.0`.
    package let key: String

    /// The entry `value`, which must be a mapping whose members are all `known`; `expected` says what it must hold.
    package init(_ value: JSONValue, key: String, known: Set<String>, expected: String) throws(ConfigurationError) {
        guard let members = value.objectValue else {
            throw ConfigurationError(key: key, value: "", reason: "expected a mapping with \(expected)")
        }
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw ConfigurationError(
                key: "\(key).\(unknown)", value: "",
                reason: "unknown member; known: \(known.sorted().joined(separator: ", "))")
        }
        self.members = members
        self.key = key
    }

    /// The key of member `name`.
    package func key(_ name: String) -> String { "\(key).\(name)" }

    /// Member `name`, a non-empty string.
    package func string(_ name: String) throws(ConfigurationError) -> String {
        guard let value = members[name]?.stringValue, !value.isEmpty else {
            throw ConfigurationError(key: key(name), value: "", reason: "expected a non-empty string")
        }
        return value
    }

    /// Member `name`, a non-empty string, or `nil` when the entry does not have it.
    func optionalString(_ name: String) throws(ConfigurationError) -> String? {
        members[name] == nil ? nil : try string(name)
    }

    /// Member `name`, `true` or `false`, or `absent` when the entry does not have it.
    package func flag(_ name: String, absent: Bool) throws(ConfigurationError) -> Bool {
        guard let value = members[name] else { return absent }
        guard case .bool(let flag) = value else {
            throw ConfigurationError(key: key(name), value: "", reason: "expected true or false")
        }
        return flag
    }
}
