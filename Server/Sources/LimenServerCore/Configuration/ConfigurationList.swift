import LimenWire
import Yams

/// A nested setting — a list of mappings (`trusted_issuers`, `identity_providers`) or a mapping (`apple`) — read as
/// JSON from the file's YAML node or from an environment variable's text (JSON, or YAML, which reads JSON too). A node
/// YAML cannot turn into JSON is an error naming `key` and the member at fault.
enum ConfigurationList {
    /// The setting at `node` of the configuration file, as JSON.
    package static func value(of node: Node, key: String) throws(ConfigurationError) -> JSONValue {
        do {
            return try JSONValue(yaml: node)
        } catch {
            let member = [key, error.path].filter { !$0.isEmpty }.joined(separator: ".")
            throw ConfigurationError(key: member, value: "", reason: error.reason)
        }
    }

    /// The setting in `text` (an environment variable's value), as JSON; `expected` says what it should be ("a list of
    /// trusted issuers") for the error when `text` is empty.
    package static func value(of text: String, key: String, expected: String) throws(ConfigurationError) -> JSONValue {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw ConfigurationError(key: key, value: "", reason: "not valid JSON or YAML")
        }
        guard let node else { throw ConfigurationError(key: key, value: "", reason: "expected \(expected)") }
        return try value(of: node, key: key)
    }
}
