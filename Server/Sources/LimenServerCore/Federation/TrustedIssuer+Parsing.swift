import Foundation
import LimenWire
import Yams

extension TrustedIssuer {
    /// The members an entry of `trusted_issuers` may have.
    package static let members: Set<String> = [
        "issuer", "jwks_url", "audiences", "algorithms", "max_token_age", "link_by_verified_email", "claims",
    ]
    /// The members of an entry's `claims`.
    static let claimMembers: Set<String> = ["email", "email_verified", "name"]

    /// The entries of a `trusted_issuers` setting (a list of mappings), checked; a bad entry is an error naming
    /// `key` and the member at fault (`trusted_issuers.1.audiences`).
    ///
    /// ```swift
    /// let issuers = try TrustedIssuer.list(parsing: value, key: "limen.yaml: trusted_issuers")
    /// ```
    package static func list(parsing value: JSONValue, key: String) throws(ConfigurationError) -> [TrustedIssuer] {
        guard case .array(let entries) = value else {
            throw ConfigurationError(key: key, value: "", reason: "expected a list of trusted issuers")
        }
        var issuers: [TrustedIssuer] = []
        for (index, entry) in entries.enumerated() {
            let issuer = try TrustedIssuer(parsing: entry, key: "\(key).\(index)")
            guard !issuers.contains(where: { $0.issuer == issuer.issuer }) else {
                throw ConfigurationError(key: "\(key).\(index).issuer", value: issuer.issuer, reason: "listed twice")
            }
            issuers.append(issuer)
        }
        return issuers
    }

    /// One entry, checked; errors name `key` followed by the member.
    package init(parsing value: JSONValue, key: String) throws(ConfigurationError) {
        let entry = try ConfigurationEntry(
            value, key: key, known: Self.members, expected: "issuer and audiences")
        let issuer = try entry.string("issuer")
        if let problem = ServerConfiguration.issuerProblem(issuer) {
            throw ConfigurationError(key: entry.key("issuer"), value: issuer, reason: problem)
        }
        self.init(issuer: issuer, audiences: try Self.audiences(entry.members, key: key))
        if let text = try entry.optionalString("jwks_url") {
            guard let url = URL(string: text), Self.isFetchable(url) else {
                throw ConfigurationError(
                    key: entry.key("jwks_url"), value: text,
                    reason: "expected an https URL (http only on a loopback host)")
            }
            jwksURL = url
        }
        if entry.members["algorithms"] != nil { algorithms = try Self.algorithms(entry.members, key: key) }
        if entry.members["max_token_age"] != nil {
            let text = try Self.plainText(entry, "max_token_age")
            guard let seconds = DurationSetting.seconds(in: text), seconds > 0 else {
                throw ConfigurationError(
                    key: entry.key("max_token_age"), value: text, reason: "expected a duration such as 600, 45s or 10m")
            }
            maxTokenAge = seconds
        }
        linkByVerifiedEmail = try entry.flag("link_by_verified_email", absent: false)
        if let mapping = entry.members["claims"] { claims = try Self.claimNames(mapping, key: entry.key("claims")) }
    }

    /// Whether keys may be fetched from `url`: `https`, or `http` on a loopback host, with a host.
    static func isFetchable(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return false
        }
        return scheme == "https" || (scheme == "http" && ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host))
    }

    /// A string or a number (YAML reads `600` as a number), as text.
    private static func plainText(_ entry: ConfigurationEntry, _ name: String) throws(ConfigurationError) -> String {
        if let number = entry.members[name]?.numberValue, number == number.rounded(), number >= 0, number < 1e15 {
            return String(Int(number))
        }
        return try entry.string(name)
    }

    private static func audiences(_ entry: [String: JSONValue], key: String) throws(ConfigurationError) -> [String] {
        guard let audiences = entry["audiences"]?.stringArrayValue, !audiences.isEmpty,
            audiences.allSatisfy({ !$0.isEmpty })
        else {
            throw ConfigurationError(
                key: "\(key).audiences", value: "",
                reason: "expected a non-empty list of the audiences (client IDs) the tokens are issued to")
        }
        return audiences
    }

    private static func algorithms(_ entry: [String: JSONValue], key: String) throws(ConfigurationError)
        -> [JWSAlgorithm]
    {
        let supported = JWSAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
        guard let names = entry["algorithms"]?.stringArrayValue, !names.isEmpty else {
            throw ConfigurationError(
                key: "\(key).algorithms", value: "", reason: "expected a non-empty list of: \(supported)")
        }
        var algorithms: [JWSAlgorithm] = []
        for name in names {
            guard let algorithm = JWSAlgorithm(rawValue: name) else {
                throw ConfigurationError(
                    key: "\(key).algorithms", value: name,
                    reason: "unknown or unsafe algorithm; supported: \(supported)")
            }
            if !algorithms.contains(algorithm) { algorithms.append(algorithm) }
        }
        return algorithms
    }

    private static func claimNames(_ value: JSONValue, key: String) throws(ConfigurationError) -> ClaimNames {
        guard let mapping = value.objectValue else {
            throw ConfigurationError(key: key, value: "", reason: "expected a mapping such as {email: mail}")
        }
        var names = ClaimNames()
        for (member, claim) in mapping {
            guard Self.claimMembers.contains(member) else {
                throw ConfigurationError(
                    key: "\(key).\(member)", value: "",
                    reason: "unknown member; known: \(Self.claimMembers.sorted().joined(separator: ", "))")
            }
            guard let name = claim.stringValue, !name.isEmpty else {
                throw ConfigurationError(key: "\(key).\(member)", value: "", reason: "expected a claim name")
            }
            switch member {
            case "email": names.email = name
            case "email_verified": names.emailVerified = name
            default: names.name = name
            }
        }
        return names
    }
}

extension TrustedIssuer {
    /// The entries of a `trusted_issuers` setting written in YAML (or JSON, which YAML reads too); errors name `key`.
    package static func list(parsing node: Node, key: String) throws(ConfigurationError) -> [TrustedIssuer] {
        try list(parsing: try ConfigurationList.value(of: node, key: key), key: key)
    }

    /// The entries of a `trusted_issuers` setting given as text (`LIMEN_TRUSTED_ISSUERS`: JSON or YAML).
    package static func list(parsing text: String, key: String) throws(ConfigurationError) -> [TrustedIssuer] {
        try list(
            parsing: try ConfigurationList.value(of: text, key: key, expected: "a list of trusted issuers"), key: key)
    }
}
