import Foundation
import LimenWire
import Yams

extension IdentityProvider {
    /// The members an entry of `identity_providers` may have.
    package static let members: Set<String> = [
        "id", "display_name", "issuer", "client_id", "client_secret", "scopes", "link_by_verified_email",
    ]

    /// The entries of an `identity_providers` setting (a list of mappings), checked; a bad entry is an error naming
    /// `key` and the member at fault (`identity_providers.1.issuer`), never showing a secret.
    ///
    /// ```swift
    /// let providers = try IdentityProvider.list(parsing: value, key: "limen.yaml: identity_providers")
    /// ```
    package static func list(parsing value: JSONValue, key: String) throws(ConfigurationError) -> [IdentityProvider] {
        guard case .array(let entries) = value else {
            throw ConfigurationError(key: key, value: "", reason: "expected a list of identity providers")
        }
        var providers: [IdentityProvider] = []
        for (index, entry) in entries.enumerated() {
            let provider = try IdentityProvider(parsing: entry, key: "\(key).\(index)")
            guard !providers.contains(where: { $0.id == provider.id }) else {
                throw ConfigurationError(key: "\(key).\(index).id", value: provider.id, reason: "listed twice")
            }
            providers.append(provider)
        }
        return providers
    }

    /// The entries of an `identity_providers` setting written in YAML (or JSON); errors name `key`.
    package static func list(parsing node: Node, key: String) throws(ConfigurationError) -> [IdentityProvider] {
        try list(parsing: try ConfigurationList.value(of: node, key: key), key: key)
    }

    /// The entries of an `identity_providers` setting given as text (`LIMEN_IDENTITY_PROVIDERS`: JSON or YAML).
    package static func list(parsing text: String, key: String) throws(ConfigurationError) -> [IdentityProvider] {
        try list(
            parsing: try ConfigurationList.value(of: text, key: key, expected: "a list of identity providers"), key: key
        )
    }

    /// One entry, checked; errors name `key` followed by the member.
    package init(parsing value: JSONValue, key: String) throws(ConfigurationError) {
        let entry = try ConfigurationEntry(
            value, key: key, known: Self.members, expected: "id, display_name, issuer and client_id")
        let id = try entry.string("id")
        guard Self.isValidID(id) else {
            throw ConfigurationError(
                key: entry.key("id"), value: id,
                reason: "expected 1 to 40 lowercase letters, digits, - or _ (it is part of URLs)")
        }
        let issuer = try entry.string("issuer")
        if let problem = ServerConfiguration.issuerProblem(issuer) {
            throw ConfigurationError(key: entry.key("issuer"), value: issuer, reason: problem)
        }
        self.init(
            id: id, displayName: try entry.string("display_name"), issuer: issuer,
            clientID: try entry.string("client_id"), clientSecret: try entry.optionalString("client_secret"),
            linkByVerifiedEmail: try entry.flag("link_by_verified_email", absent: false))
        if entry.members["scopes"] != nil {
            guard let scopes = entry.members["scopes"]?.stringArrayValue, !scopes.isEmpty,
                scopes.allSatisfy(Self.isValidScope)
            else {
                throw ConfigurationError(
                    key: entry.key("scopes"), value: "", reason: "expected a non-empty list of scope names")
            }
            self.scopes = scopes
        }
    }

    /// Whether `id` may name a provider: 1 to 40 of `a-z`, `0-9`, `-`, `_`.
    static func isValidID(_ id: String) -> Bool {
        (1...40).contains(id.count)
            && id.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            }
    }

    /// A scope token (RFC 6749 §3.3): printable ASCII without space, `"` or `\`.
    private static func isValidScope(_ scope: String) -> Bool {
        !scope.isEmpty
            && scope.unicodeScalars.allSatisfy { $0.value >= 0x21 && $0.value <= 0x7E && $0 != "\"" && $0 != "\\" }
    }
}
