import Foundation
import LimenWire
import Yams

/// A configuration file: a YAML (or JSON, which YAML reads too) mapping of setting names to plain values.
///
/// ```yaml
/// host: 0.0.0.0
/// port: 8080
/// data_dir: /var/lib/limen
/// issuer: https://id.example.com
/// database_url: postgres://limen@db.internal/limen   # the password from LIMEN_DATABASE_URL is safer
/// database_pool_size: 20                              # PostgreSQL connections per node
/// post_rate_limit: 20/s                              # or "off"
/// sign_in_rate_limit: 1/s                             # sign-in and sign-up POSTs, or "off"
/// sign_up: enabled                                    # or "disabled": only administrators create accounts
/// flows: [/etc/limen/sign-up.yaml]                    # flow definitions: add flows or replace built-in ones
/// mail_url: smtp+starttls://limen@mail.example:587    # or log: (default); LIMEN_MAIL_URL for one with a password
/// mail_from: limen@example.com
/// email_code_length: 8                               # digits of a one-time code sent by email (6–10)
/// email_code_mail_budget: 5/h,10/d                    # codes mailed per address and purpose
/// email_code_try_budget: 10/h,20/d                    # codes tried per address and purpose
/// mail_webhook_secret: …                              # with an https:// mail_url (LIMEN_MAIL_WEBHOOK_SECRET is safer)
/// authorize_rate_limit: 5/s                          # /authorize and flow starts per client address, or "off"
/// trusted_proxies: [127.0.0.1, "::1"]                 # or one comma-separated string
/// resources: [https://api.example.com]               # RFC 8707: APIs an access token's aud may name
/// access_token_ttl: 10m                               # durations: 600, 45s, 10m, 12h, 30d
/// id_token_ttl: 5m
/// refresh_token_ttl: 30d
/// refresh_reuse_grace: 10s
/// grant_max_lifetime: 90d                             # a grant ends then, however often it is refreshed
/// anonymous_user_ttl: 30d                             # an anonymous user is deleted this long after their last refresh
/// account_change_max_age: 5m                          # linking, unlinking, deleting need a sign-in this recent
/// password_hash_log_n: 17                             # scrypt N = 2^17 for new and changed passwords
/// password_hash_parallelism: 1
/// header_read_timeout: 10s                            # a request head must arrive within this
/// idle_timeout: 60s                                   # an idle connection is closed after this
/// metrics: loopback                                   # who reads /metrics: loopback, token, public or off
/// metrics_token: …                                    # with metrics: token (LIMEN_METRICS_TOKEN is safer)
/// otel_endpoint: http://127.0.0.1:4318               # OpenTelemetry traces over OTLP/HTTP; off when not set
/// profile_schema:                                     # the app schema (nested; file only)
///   fields:
///     nickname: {type: string, validation: {max: 40}}
///     diagnosis: {type: string, encrypted: true}
/// trusted_issuers:                                    # RFC 8693 token exchange (nested; or LIMEN_TRUSTED_ISSUERS)
///   - {issuer: https://accounts.google.com, audiences: [1234.apps.googleusercontent.com]}
/// apple:                                              # Sign in with Apple (nested; or LIMEN_APPLE)
///   bundle_ids: [com.example.app]
/// identity_providers:                                 # "Continue with …" (nested; or LIMEN_IDENTITY_PROVIDERS)
///   - {id: partner, display_name: Partner ID, issuer: https://id.partner.example, client_id: limen}
/// ```
///
/// ``TrustedIssuer`` describes the members of a `trusted_issuers` entry, ``AppleSignIn`` those of `apple`,
/// ``IdentityProvider`` those of an `identity_providers` entry.
package struct ConfigurationFile: Sendable, Equatable {
    /// The setting names a file may hold: every plain setting's, and the nested ones.
    package static let keys = Set(ServerSetting.all.map(\.fileKey)).union([
        schemaKey, trustedIssuersKey, appleKey, identityProvidersKey,
    ])
    /// The setting holding the app schema, a nested mapping (``ProfileSchema``).
    static let schemaKey = "profile_schema"
    /// The setting holding the issuers whose tokens `/token` exchanges, a list of mappings (``TrustedIssuer``).
    static let trustedIssuersKey = "trusted_issuers"
    /// The setting configuring Sign in with Apple, a mapping (``AppleSignIn``).
    static let appleKey = "apple"
    /// The setting holding the upstream OpenID providers of the hosted pages, a list of mappings (``IdentityProvider``).
    static let identityProvidersKey = "identity_providers"
    /// The settings that may also be a list of plain values, read as one comma-separated value.
    static let listKeys = Set(ServerSetting.all.filter(\.isList).map(\.fileKey))

    /// Where it was read from, for error messages.
    package let path: String
    /// The values by setting name, as text.
    package let values: [String: String]
    /// The app schema of ``schemaKey``, checked, if the file has one.
    package var profileSchema: ProfileSchema?
    /// The trusted issuers of ``trustedIssuersKey``, checked, if the file has the setting.
    package var trustedIssuers: [TrustedIssuer]?
    /// Sign in with Apple as ``appleKey`` configures it, checked, if the file has the setting.
    package var apple: AppleSignIn?
    /// The identity providers of ``identityProvidersKey``, checked, if the file has the setting.
    package var identityProviders: [IdentityProvider]?

    /// Reads and checks the file at `path`: unreadable, malformed, nested or unknown settings are errors naming the
    /// file and the key.
    package static func load(path: String) throws(ConfigurationError) -> ConfigurationFile {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw ConfigurationError(key: "--config", value: path, reason: "cannot read the file")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigurationError(key: "--config", value: path, reason: "not valid YAML or JSON: \(error)")
        }
        guard let mapping = root?.mapping else {
            throw ConfigurationError(key: "--config", value: path, reason: "expected a mapping of settings")
        }
        var values: [String: String] = [:]
        var profileSchema: ProfileSchema?
        var trustedIssuers: [TrustedIssuer]?
        var apple: AppleSignIn?
        var identityProviders: [IdentityProvider]?
        for (keyNode, valueNode) in mapping {
            let key = keyNode.string ?? "\(keyNode)"
            guard keys.contains(key) else {
                throw ConfigurationError(
                    key: "\(path): \(key)",
                    value: valueNode.string ?? "",
                    reason: "unknown setting; known: \(keys.sorted().joined(separator: ", "))"
                )
            }
            if key == schemaKey {
                do {
                    profileSchema = try ProfileSchema(parsing: try JSONValue(yaml: valueNode))
                } catch {
                    let member = [key, error.path].filter { !$0.isEmpty }.joined(separator: ".")
                    throw ConfigurationError(key: "\(path): \(member)", value: "", reason: error.reason)
                }
                continue
            }
            if key == trustedIssuersKey {
                trustedIssuers = try TrustedIssuer.list(parsing: valueNode, key: "\(path): \(key)")
                continue
            }
            if key == appleKey {
                apple = try AppleSignIn(parsing: valueNode, key: "\(path): \(key)")
                continue
            }
            if key == identityProvidersKey {
                identityProviders = try IdentityProvider.list(parsing: valueNode, key: "\(path): \(key)")
                continue
            }
            if listKeys.contains(key), let sequence = valueNode.sequence {
                let items = sequence.compactMap { $0.scalar?.string }
                guard items.count == sequence.count else {
                    throw ConfigurationError(
                        key: "\(path): \(key)", value: "", reason: "expected a list of plain values")
                }
                values[key] = items.joined(separator: ",")
                continue
            }
            guard let value = valueNode.scalar?.string else {
                throw ConfigurationError(key: "\(path): \(key)", value: "", reason: "expected a plain value")
            }
            values[key] = value
        }
        return ConfigurationFile(
            path: path, values: values, profileSchema: profileSchema, trustedIssuers: trustedIssuers,
            apple: apple, identityProviders: identityProviders)
    }
}

extension JSONValue {
    /// The YAML `node` as JSON: mappings with string keys, sequences, and scalars as YAML's core schema resolves them
    /// (`null`, booleans, numbers, else strings). Anything else (a key twice or not a string, an alias) is refused with
    /// the path of the node at fault, from `path` (empty for the root).
    package init(yaml node: Node, at path: String = "") throws(ProfileSchemaError) {
        switch node {
        case .mapping(let mapping):
            var members: [String: JSONValue] = [:]
            for (key, value) in mapping {
                guard let name = key.scalar?.string, members[name] == nil else {
                    throw ProfileSchemaError(path: path, reason: "keys must be distinct strings")
                }
                members[name] = try JSONValue(yaml: value, at: path.isEmpty ? name : "\(path).\(name)")
            }
            self = .object(members)
        case .sequence(let sequence):
            var elements: [JSONValue] = []
            for (index, element) in sequence.enumerated() {
                elements.append(try JSONValue(yaml: element, at: path.isEmpty ? "\(index)" : "\(path).\(index)"))
            }
            self = .array(elements)
        case .scalar:
            if node.null != nil {
                self = .null
            } else if let bool = node.bool {
                self = .bool(bool)
            } else if let number = node.int.map(Double.init) ?? node.float, number.isFinite {
                self = .number(number)
            } else {
                self = .string(node.string ?? "")
            }
        case .alias:
            throw ProfileSchemaError(path: path, reason: "aliases are not supported")
        }
    }
}
