import Crypto
import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// What an administrator asks for when registering a client; ``record(now:)`` checks it and makes the stored record.
///
/// ```swift
/// let (client, secret) = try ClientRegistration(id: "web", kind: .confidential,
///                                               redirectURIs: ["https://app.example/cb"]).record(now: Date())
/// try await store.insertClientIfAbsent(client)   // show `secret` once; only its hash is kept
/// ```
public struct ClientRegistration: Sendable, Equatable {
    /// The `client_id`: 1–128 characters of letters, digits, `-`, `_`, `.`.
    public var id: String
    /// A display name; the ID when absent.
    public var name: String?
    /// Public or confidential (a confidential client gets a generated secret).
    public var kind: ClientRecord.Kind
    /// A native app (loopback redirects on any port, private-use URI schemes).
    public var isNative: Bool
    /// Skips consent.
    public var isFirstParty: Bool
    /// Redirect URIs, matched exactly.
    public var redirectURIs: [String]
    /// Post-logout redirect URIs.
    public var postLogoutRedirectURIs: [String]
    /// `ES256` (default) or `RS256`.
    public var idTokenSignedResponseAlg: String
    /// The client's own access token lifetime in seconds (``accessTokenLifetimeRange``); `nil`: the server's.
    public var accessTokenLifetime: TimeInterval?
    /// The client's own refresh token lifetime in seconds (``refreshTokenLifetimeRange``); `nil`: the server's.
    public var refreshTokenLifetime: TimeInterval?
    /// A legacy confidential client that may leave out PKCE; off by default, refused for a public client.
    public var allowsNoPKCE: Bool
    /// Where the link in an email with a one-time code leads (the rules of a redirect URI: https, loopback, or a
    /// native app's private-use scheme; no fragment, which carries the interaction and the code).
    public var emailLinkURI: String?
    /// The grant types the client may use (``grantTypes``); `nil`: `authorization_code` and `refresh_token`.
    public var grantTypes: [String]?
    /// The provider's own app, approving other apps' sign-ins for its user (app-to-app); only for a first-party
    /// native client.
    public var isAppToAppHost: Bool
    /// Whether its tokens must be DPoP-bound (`dpop_bound_access_tokens`, RFC 9449 §5.2).
    public var requiresDPoP: Bool
    /// The `acr` every sign-in for it must reach, whatever its requests ask (``requirableACRValues``); `nil`: none.
    public var requiredACR: String?

    /// The values ``requiredACR`` may take: `mfa` (two factors) and `phr` (a passkey).
    public static let requirableACRValues = ["mfa", "phr"]

    /// The grant types a client may be registered with: the authorization code, refresh token, device code (RFC 8628)
    /// and token exchange (RFC 8693) grants.
    public static let supportedGrantTypes = GrantType.allCases.map(\.rawValue)

    /// Access token lifetimes a client may have: a minute to a day (a bearer token is not revocable everywhere).
    public static let accessTokenLifetimeRange: ClosedRange<TimeInterval> = 60...86_400
    /// Refresh token lifetimes a client may have: a minute to a year.
    public static let refreshTokenLifetimeRange: ClosedRange<TimeInterval> = 60...31_536_000

    /// Creates a registration request.
    public init(
        id: String,
        name: String? = nil,
        kind: ClientRecord.Kind,
        isNative: Bool = false,
        isFirstParty: Bool = false,
        redirectURIs: [String],
        postLogoutRedirectURIs: [String] = [],
        idTokenSignedResponseAlg: String = SigningAlgorithm.es256.rawValue,
        accessTokenLifetime: TimeInterval? = nil,
        refreshTokenLifetime: TimeInterval? = nil,
        allowsNoPKCE: Bool = false,
        emailLinkURI: String? = nil,
        grantTypes: [String]? = nil,
        isAppToAppHost: Bool = false,
        requiresDPoP: Bool = false,
        requiredACR: String? = nil
    ) {
        self.id = id
        self.name = name
        self.kind = kind
        self.isNative = isNative
        self.isFirstParty = isFirstParty
        self.redirectURIs = redirectURIs
        self.postLogoutRedirectURIs = postLogoutRedirectURIs
        self.idTokenSignedResponseAlg = idTokenSignedResponseAlg
        self.accessTokenLifetime = accessTokenLifetime
        self.refreshTokenLifetime = refreshTokenLifetime
        self.allowsNoPKCE = allowsNoPKCE
        self.emailLinkURI = emailLinkURI
        self.grantTypes = grantTypes
        self.isAppToAppHost = isAppToAppHost
        self.requiresDPoP = requiresDPoP
        self.requiredACR = requiredACR
    }

    /// The record to store and, for a confidential client, its secret (returned once, stored only as a hash).
    public func record(now: Date) throws(ClientRegistrationError) -> (client: ClientRecord, secret: String?) {
        var client = try checkedRecord(createdAt: now)
        let secret = kind == .confidential ? ClientSecret.generate() : nil
        client.secretHash = secret.map(ClientSecret.hash)
        return (client, secret)
    }

    /// The record it asks for, created at `createdAt`, without a secret or branding, once every rule of a registration
    /// holds.
    func checkedRecord(createdAt: Date) throws(ClientRegistrationError) -> ClientRecord {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard (1...128).contains(id.count), id.unicodeScalars.allSatisfy(allowed.contains) else {
            throw .invalidClientID(id)
        }
        guard !SeedClients.isInternal(id) else { throw .reservedClientID(id) }
        guard !redirectURIs.isEmpty else { throw .noRedirectURI }
        for uri in redirectURIs + postLogoutRedirectURIs {
            if let reason = Self.redirectProblem(uri, isNative: isNative) { throw .invalidRedirectURI(uri, reason) }
        }
        if let emailLinkURI, let reason = Self.redirectProblem(emailLinkURI, isNative: isNative) {
            throw .invalidEmailLinkURI(emailLinkURI, reason)
        }
        guard let algorithm = SigningAlgorithm(rawValue: idTokenSignedResponseAlg) else {
            throw .unsupportedAlgorithm(idTokenSignedResponseAlg)
        }
        if let requiredACR, !Self.requirableACRValues.contains(requiredACR) { throw .unsupportedACR(requiredACR) }
        if isNative && kind == .confidential { throw .nativeClientWithSecret }
        if allowsNoPKCE && kind == .public { throw .publicClientWithoutPKCE }
        if isAppToAppHost && !(isNative && isFirstParty) { throw .appToAppHostNotFirstPartyNative }
        if let accessTokenLifetime, !Self.accessTokenLifetimeRange.contains(accessTokenLifetime) {
            throw .invalidTokenLifetime("access_token_ttl", Self.accessTokenLifetimeRange)
        }
        if let refreshTokenLifetime, !Self.refreshTokenLifetimeRange.contains(refreshTokenLifetime) {
            throw .invalidTokenLifetime("refresh_token_ttl", Self.refreshTokenLifetimeRange)
        }
        var types: [GrantType] = [.authorizationCode, .refreshToken]
        if let grantTypes {
            guard !grantTypes.isEmpty else { throw .unsupportedGrantType("") }
            types = []
            for name in grantTypes {
                guard let type = GrantType(rawValue: name) else { throw .unsupportedGrantType(name) }
                if !types.contains(type) { types.append(type) }
            }
        }
        return ClientRecord(
            id: id,
            name: name ?? id,
            kind: kind,
            isNative: isNative,
            redirectURIs: redirectURIs,
            postLogoutRedirectURIs: postLogoutRedirectURIs,
            grantTypes: types,
            isFirstParty: isFirstParty,
            idTokenSignedResponseAlg: algorithm,
            accessTokenLifetime: accessTokenLifetime?.rounded(.down),
            refreshTokenLifetime: refreshTokenLifetime?.rounded(.down),
            allowsNoPKCE: allowsNoPKCE,
            createdAt: createdAt,
            emailLinkURI: emailLinkURI,
            isAppToAppHost: isAppToAppHost,
            requiresDPoP: requiresDPoP,
            requiredACR: requiredACR
        )
    }

    /// Why `uri` cannot be registered (RFC 6749 §3.1.2, RFC 8252 §7, RFC 9700 §2.1), or `nil`.
    static func redirectProblem(_ uri: String, isNative: Bool) -> String? {
        guard let components = URLComponents(string: uri), let scheme = components.scheme?.lowercased() else {
            return "not an absolute URI"
        }
        guard components.fragment == nil else { return "a redirect URI has no fragment" }
        guard components.user == nil, components.password == nil else { return "a redirect URI has no user info" }
        if let port = components.port, !AuthorizationValidator.tcpPorts.contains(port) {
            return "the port must be from 1 to 65535"
        }
        switch scheme {
        case "https":
            return components.host?.isEmpty == false ? nil : "an https redirect URI needs a host"
        case "http":
            let host = components.host ?? ""
            return ["127.0.0.1", "::1", "[::1]"].contains(host)
                ? nil : "http is only for loopback IP literals (127.0.0.1 or [::1]); use https"
        default:
            // RFC 8252 §7.1: private-use schemes are reverse domain names, for native apps only.
            guard isNative else { return "only native clients may use a private-use URI scheme" }
            return scheme.contains(".") ? nil : "a private-use scheme is a reverse domain name, e.g. com.example.app"
        }
    }
}

/// Client secrets: 256 random bits, shown once, stored as SHA-256 (they are random, so a fast hash is right).
public enum ClientSecret {
    /// A new secret, base64url.
    public static func generate() -> String {
        RandomToken.make(byteCount: 32)
    }

    /// The stored form of `secret`.
    public static func hash(_ secret: String) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }

    /// Whether `presented` is the secret whose hash is `stored`, in constant time.
    public static func matches(_ presented: String, hash stored: Data) -> Bool {
        ConstantTime.equals(Base64URL.encode(hash(presented)), Base64URL.encode(stored))
    }
}

/// Why a client cannot be registered.
public enum ClientRegistrationError: Error, Sendable, Equatable, LocalizedError {
    /// The client ID is empty, too long or has other characters.
    case invalidClientID(String)
    /// The client ID is one of Limen Server's own (``SeedClients/isInternal(_:)``).
    case reservedClientID(String)
    /// No redirect URI was given.
    case noRedirectURI
    /// A redirect URI cannot be registered.
    case invalidRedirectURI(String, String)
    /// The ID token algorithm is not one the server signs with.
    case unsupportedAlgorithm(String)
    /// A native app cannot keep a secret (RFC 8252 §8.5).
    case nativeClientWithSecret
    /// Only a confidential client may be let off PKCE (a public client's code is otherwise anyone's).
    case publicClientWithoutPKCE
    /// A client with this ID exists.
    case alreadyExists(String)
    /// A token lifetime (named by its wire name) is outside the allowed range of seconds.
    case invalidTokenLifetime(String, ClosedRange<TimeInterval>)
    /// The email link URI cannot be registered.
    case invalidEmailLinkURI(String, String)
    /// A grant type the server does not support (``ClientRegistration/supportedGrantTypes``), or an empty list.
    case unsupportedGrantType(String)
    /// Only the provider's own native app (first party) may approve other apps' sign-ins.
    case appToAppHostNotFirstPartyNative
    /// An `acr` a client cannot require (``ClientRegistration/requirableACRValues``).
    case unsupportedACR(String)

    /// A stable code for logs and tests.
    public var code: String {
        switch self {
        case .invalidClientID: "clients.invalid_client_id"
        case .reservedClientID: "clients.reserved_client_id"
        case .noRedirectURI: "clients.no_redirect_uri"
        case .invalidRedirectURI: "clients.invalid_redirect_uri"
        case .unsupportedAlgorithm: "clients.unsupported_algorithm"
        case .nativeClientWithSecret: "clients.native_client_with_secret"
        case .publicClientWithoutPKCE: "clients.public_client_without_pkce"
        case .alreadyExists: "clients.already_exists"
        case .invalidTokenLifetime: "clients.invalid_token_lifetime"
        case .invalidEmailLinkURI: "clients.invalid_email_link_uri"
        case .unsupportedGrantType: "clients.unsupported_grant_type"
        case .appToAppHostNotFirstPartyNative: "clients.invalid_app2app_host"
        case .unsupportedACR: "clients.unsupported_acr"
        }
    }

    /// A human message.
    public var errorDescription: String? {
        switch self {
        case .invalidClientID(let id): "Invalid client ID \"\(id)\": use 1–128 letters, digits, '-', '_' or '.'"
        case .reservedClientID(let id): "The client ID \(id) is Limen Server's own: choose another"
        case .noRedirectURI: "A client needs at least one redirect URI"
        case .invalidRedirectURI(let uri, let reason): "Invalid redirect URI \(uri): \(reason)"
        case .unsupportedAlgorithm(let algorithm): "Unsupported ID token algorithm \(algorithm): use ES256 or RS256"
        case .nativeClientWithSecret: "A native client is public: it cannot keep a secret"
        case .publicClientWithoutPKCE: "Only a confidential client may be allowed to leave out PKCE"
        case .alreadyExists(let id): "A client with ID \(id) already exists"
        case .invalidTokenLifetime(let field, let range):
            "\(field) must be between \(Int(range.lowerBound)) and \(Int(range.upperBound)) seconds"
        case .invalidEmailLinkURI(let uri, let reason): "Invalid email link URI \(uri): \(reason)"
        case .unsupportedGrantType(let grantType):
            "Unsupported grant type \"\(grantType)\": use \(ClientRegistration.supportedGrantTypes.joined(separator: ", "))"
        case .appToAppHostNotFirstPartyNative: "An app-to-app host must be a first-party native client"
        case .unsupportedACR(let acr):
            "A client cannot require acr \"\(acr)\": use \(ClientRegistration.requirableACRValues.joined(separator: " or "))"
        }
    }
}

extension ClientRecord {
    /// Whether `secret` is this client's own: a confidential client's secret, compared in constant time. A public
    /// client has none, so nothing proves it.
    package func isProved(bySecret secret: String) -> Bool {
        guard kind == .confidential, let secretHash else { return false }
        return ClientSecret.matches(secret, hash: secretHash)
    }
}
