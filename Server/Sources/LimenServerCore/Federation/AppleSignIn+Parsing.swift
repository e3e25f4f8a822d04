import Crypto
import Foundation
import LimenWire
import Yams

extension AppleSignIn {
    /// The members the `apple` setting may have.
    package static let members: Set<String> = [
        "bundle_ids", "base_url", "link_by_verified_email", "team_id", "key_id", "private_key_file",
    ]
    /// The members that configure code redemption: all of them or none.
    static let teamKeyMembers = ["team_id", "key_id", "private_key_file"]

    /// The `apple` setting written in YAML (or JSON, which YAML reads too); errors name `key` and the member.
    package init(parsing node: Node, key: String) throws(ConfigurationError) {
        try self.init(parsing: try ConfigurationList.value(of: node, key: key), key: key)
    }

    /// The `apple` setting given as text (`LIMEN_APPLE`: JSON or YAML); errors name `key` and the member.
    package init(parsing text: String, key: String) throws(ConfigurationError) {
        try self.init(parsing: try ConfigurationList.value(of: text, key: key, expected: "a mapping"), key: key)
    }

    /// The `apple` setting (a mapping), checked; a bad member is an error naming `key` and the member
    /// (`apple.bundle_ids`).
    ///
    /// ```swift
    /// let apple = try AppleSignIn(parsing: value, key: "limen.yaml: apple")
    /// ```
    package init(parsing value: JSONValue, key: String) throws(ConfigurationError) {
        guard let entry = value.objectValue else {
            throw ConfigurationError(key: key, value: "", reason: "expected a mapping with bundle_ids")
        }
        if let unknown = entry.keys.sorted().first(where: { !Self.members.contains($0) }) {
            throw ConfigurationError(
                key: "\(key).\(unknown)", value: "",
                reason: "unknown member; known: \(Self.members.sorted().joined(separator: ", "))")
        }
        guard let bundleIDs = entry["bundle_ids"]?.stringArrayValue, !bundleIDs.isEmpty,
            bundleIDs.allSatisfy({ !$0.isEmpty && !$0.contains(" ") })
        else {
            throw ConfigurationError(
                key: "\(key).bundle_ids", value: "",
                reason: "expected a non-empty list of the app's bundle IDs (the identity token's aud)")
        }
        self.init(bundleIDs: bundleIDs)
        if entry["base_url"] != nil {
            let baseURL = try Self.string(entry, "base_url", key: key)
            if let problem = ServerConfiguration.issuerProblem(baseURL) {
                throw ConfigurationError(key: "\(key).base_url", value: baseURL, reason: problem)
            }
            self.baseURL = baseURL
        }
        if let link = entry["link_by_verified_email"] {
            guard case .bool(let flag) = link else {
                throw ConfigurationError(
                    key: "\(key).link_by_verified_email", value: "", reason: "expected true or false")
            }
            linkByVerifiedEmail = flag
        }
        teamKey = try Self.teamKey(entry, key: key)
    }

    /// The team key when `team_id`, `key_id` and `private_key_file` are all given (the file a readable P-256 key in
    /// PEM, as Apple's `.p8` files are); `nil` when none is.
    private static func teamKey(_ entry: [String: JSONValue], key: String) throws(ConfigurationError) -> TeamKey? {
        let given = teamKeyMembers.filter { entry[$0] != nil }
        guard !given.isEmpty else { return nil }
        if let missing = teamKeyMembers.first(where: { entry[$0] == nil }) {
            throw ConfigurationError(
                key: "\(key).\(missing)", value: "",
                reason: "team_id, key_id and private_key_file are needed together to redeem authorization codes")
        }
        let teamKey = TeamKey(
            teamID: try string(entry, "team_id", key: key), keyID: try string(entry, "key_id", key: key),
            privateKeyFile: try string(entry, "private_key_file", key: key))
        guard let data = FileManager.default.contents(atPath: teamKey.privateKeyFile),
            let pem = String(data: data, encoding: .utf8),
            (try? P256.Signing.PrivateKey(pemRepresentation: pem)) != nil
        else {
            throw ConfigurationError(
                key: "\(key).private_key_file", value: teamKey.privateKeyFile,
                reason: "cannot read a P-256 private key (PEM, as Apple's .p8 files) from this file")
        }
        return teamKey
    }

    private static func string(_ entry: [String: JSONValue], _ name: String, key: String) throws(ConfigurationError)
        -> String
    {
        guard let value = entry[name]?.stringValue, !value.isEmpty else {
            throw ConfigurationError(key: "\(key).\(name)", value: "", reason: "expected a non-empty string")
        }
        return value
    }
}
