import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// Checks an authorization request (RFC 6749 §4.1.1, RFC 7636, RFC 9700) before anyone signs in.
///
/// Until the client and its redirect URI are established, errors are shown on an error page: redirecting to an
/// unverified URI would make the server an open redirector (RFC 6749 §4.1.2.1, RFC 9700 §4.11). After that, errors
/// go back to the client's redirect URI with `state` and `iss` (RFC 9207).
package struct AuthorizationValidator: Sendable {
    /// The longest `state` accepted, in bytes.
    static let maximumStateLength = 2048
    /// The longest value accepted, in bytes, for each parameter stored with a pending request (or, `id_token_hint`,
    /// parsed): the request is kept before anyone signs in, so an unauthenticated one must not fill the database.
    static let fieldLimits: [(name: String, bytes: Int)] = [
        ("state", maximumStateLength), ("nonce", 2048), ("login_hint", 1024), ("ui_locales", 256),
        ("id_token_hint", 8192), ("acr_values", 256),
    ]

    /// The scopes this server knows (OpenID Connect Core §5.4, §11); anything else is `invalid_scope`.
    package static let supportedScopes = ["openid", "profile", "email", "phone", "offline_access"]

    /// A value of the `prompt` parameter (OpenID Connect Core §3.1.2.1).
    package enum Prompt: String, Sendable, Hashable, CaseIterable {
        /// Show no page: answer at once, with an error if the user would have to act.
        case none
        /// Ask the user to sign in again even with a session.
        case login
        /// Ask for consent even if it was given before.
        case consent
        /// Let the user choose an account; with one account per browser session, this is a fresh sign-in.
        case selectAccount = "select_account"
    }

    /// A request that passed every check.
    package struct Accepted: Sendable, Equatable {
        /// The registered client.
        package var client: ClientRecord
        /// The redirect URI, registered for the client.
        package var redirectURI: String
        /// The requested scopes, each known and without repetition, `openid` among them, space-separated.
        package var scope: String
        /// The client's `state`.
        package var state: String?
        /// The client's `nonce`.
        package var nonce: String?
        /// The PKCE challenge (S256).
        package var codeChallenge: String?
        /// The `prompt` values; `none` comes alone.
        package var prompt: Set<Prompt> = []
        /// The `max_age` in seconds.
        package var maxAge: Int?
        /// The `login_hint` (an email address, for this server).
        package var loginHint: String?
        /// The `id_token_hint`, not yet verified.
        package var idTokenHint: String?
        /// The `ui_locales`: language tags, preferred first, space-separated.
        package var uiLocales: String?
        /// The `acr_values` this server knows (``AuthenticationLevel``), space-separated, as requested.
        package var acrValues: String?
        /// The `dpop_jkt` (RFC 9449 §10): the thumbprint of the DPoP key the code must be redeemed with.
        package var dpopJKT: String?
    }

    /// What to do with a request.
    package enum Outcome: Sendable, Equatable {
        /// Proceed to sign-in.
        case accepted(Accepted)
        /// Show an error page; never redirect (unknown client or unregistered redirect URI).
        case errorPage(error: String, description: String)
        /// Send the error to the client's verified redirect URI.
        case redirectError(redirectURI: String, error: String, description: String, state: String?)
    }

    package let store: any ClientStore
    /// The RFC 8707 resources the server issues tokens for (``ServerConfiguration/resources``).
    package var resources: [String] = []
    /// Where the client's record is read through (the provider's, as at `/token`: a native flow's start); `nil` reads
    /// the store each time (`/authorize`, whose pages show the client's branding as it is now).
    package var clients: ClientCache?

    /// Makes it of its parts.
    package init(store: any ClientStore, resources: [String] = [], clients: ClientCache? = nil) {
        self.store = store
        self.resources = resources
        self.clients = clients
    }

    /// Validates the parameters of a `GET` or `POST /authorize`, read `allowingRepeats`: a parameter sent empty is
    /// absent (RFC 6749 §3.1), and a repeated one is refused here, with an error page or an error sent to the client.
    package func validate(_ parameters: FormFields) async throws(StorageError) -> Outcome {
        guard !parameters.isRepeated("client_id"), let clientID = parameters["client_id"] else {
            return .errorPage(error: "invalid_request", description: "client_id is missing or repeated")
        }
        let found: ClientRecord?
        if let clients {
            found = try await clients.client(id: clientID, in: store)
        } else {
            found = try await store.client(id: clientID)
        }
        guard let client = found else {
            return .errorPage(error: "invalid_client", description: "unknown client_id")
        }
        guard !parameters.isRepeated("redirect_uri"), let redirectURI = parameters["redirect_uri"] else {
            return .errorPage(error: "invalid_request", description: "redirect_uri is missing or repeated")
        }
        guard Self.redirectURI(redirectURI, matches: client.redirectURIs, isNative: client.isNative) else {
            return .errorPage(error: "invalid_request", description: "redirect_uri is not registered for this client")
        }

        // From here on the redirect URI is the client's own: errors go back to it.
        // An oversized state is not echoed back: the error says why instead.
        let state = parameters.values("state").first.flatMap { $0.utf8.count <= Self.maximumStateLength ? $0 : nil }
        func refuse(_ error: String, _ description: String) -> Outcome {
            .redirectError(redirectURI: redirectURI, error: error, description: description, state: state)
        }
        let singleValued = [
            "response_type", "scope", "state", "nonce", "code_challenge", "code_challenge_method", "prompt",
            "max_age", "login_hint", "id_token_hint", "ui_locales", "response_mode", "acr_values", "dpop_jkt",
        ]
        if let name = singleValued.first(where: parameters.isRepeated) {
            return refuse("invalid_request", "\(name) is repeated")
        }
        if let (name, bytes) = Self.fieldLimits.first(where: { (parameters[$0.name]?.utf8.count ?? 0) > $0.bytes }) {
            return refuse("invalid_request", "\(name) is longer than \(bytes) bytes")
        }
        guard let responseType = parameters["response_type"] else {
            return refuse("invalid_request", "response_type is missing")
        }
        guard responseType == "code" else {
            return refuse("unsupported_response_type", "only response_type=code is supported")
        }
        guard client.grantTypes.contains(.authorizationCode) else {
            return refuse("unauthorized_client", "this client may not use the authorization code grant")
        }
        if let mode = parameters["response_mode"], mode != "query" {
            return refuse("invalid_request", "only response_mode=query is supported")
        }

        let challenge = parameters["code_challenge"]
        let method = parameters["code_challenge_method"]
        switch (challenge, method) {
        case (nil, nil):
            if !client.mayLeaveOutPKCE {
                return refuse(
                    "invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256")
            }
        case (nil, .some):
            return refuse("invalid_request", "code_challenge_method without code_challenge")
        case (.some, let method):
            // RFC 7636 §4.3: a missing method means "plain", which is not accepted.
            guard method == "S256" else {
                return refuse("invalid_request", "code_challenge_method must be S256")
            }
            guard let challenge, Self.isBase64URLSHA256(challenge) else {
                return refuse("invalid_request", "code_challenge is not a base64url SHA-256 value (43 characters)")
            }
        }

        for resource in parameters.values("resource") {
            if let problem = ResourceIndicator.problem(with: resource, allowed: resources) {
                return refuse("invalid_target", problem)
            }
        }

        let scope: String
        switch Self.requestedScope(parameters["scope"]) {
        case .success(let accepted): scope = accepted
        case .failure(let refusal): return refuse("invalid_scope", refusal.description)
        }
        var prompt: Set<Prompt> = []
        for value in (parameters["prompt"] ?? "").split(separator: " ") {
            guard let known = Prompt(rawValue: String(value)) else {
                return refuse("invalid_request", "unknown prompt value \(value)")
            }
            prompt.insert(known)
        }
        if prompt.contains(.none) && prompt.count > 1 {
            return refuse("invalid_request", "prompt=none cannot be combined with other values")
        }
        var maxAge: Int?
        if let text = parameters["max_age"] {
            guard let seconds = Int(text), seconds >= 0 else {
                return refuse("invalid_request", "max_age must be a non-negative number of seconds")
            }
            maxAge = seconds
        }
        if let thumbprint = parameters["dpop_jkt"], !Self.isBase64URLSHA256(thumbprint) {
            return refuse("invalid_request", "dpop_jkt is not a base64url SHA-256 JWK thumbprint (43 characters)")
        }
        // A request for levels this server cannot tell apart is refused, never answered with a lower `acr`.
        let levels = AuthenticationLevel.known(in: parameters["acr_values"])
        if parameters["acr_values"] != nil, levels.isEmpty {
            let supported = AuthenticationLevel.supportedValues.joined(separator: ", ")
            return refuse("invalid_request", "acr_values names none of the supported values (\(supported))")
        }

        return .accepted(
            Accepted(
                client: client,
                redirectURI: redirectURI,
                scope: scope,
                state: state,
                nonce: parameters["nonce"],
                codeChallenge: challenge,
                prompt: prompt,
                maxAge: maxAge,
                loginHint: parameters["login_hint"],
                idTokenHint: parameters["id_token_hint"],
                uiLocales: parameters["ui_locales"],
                acrValues: levels.isEmpty ? nil : levels.map(\.rawValue).joined(separator: " "),
                dpopJKT: parameters["dpop_jkt"]
            )
        )
    }

    /// Why a requested scope is refused (`invalid_scope`).
    package struct ScopeRefusal: Error, Sendable, Equatable {
        /// What is wrong, for `error_description`.
        package let description: String
    }

    /// The requested scopes (`scope`, space-separated), each known and kept once, `openid` among them, as one
    /// space-separated string; shared by `/authorize` and `/device_authorization`.
    package static func requestedScope(_ requested: String?) -> Result<String, ScopeRefusal> {
        var scopes: [String] = []
        for scope in (requested ?? "").split(separator: " ").map(String.init) where !scopes.contains(scope) {
            guard supportedScopes.contains(scope) else {
                return .failure(
                    ScopeRefusal(
                        description: "unknown scope \(scope); supported: \(supportedScopes.joined(separator: " "))"))
            }
            scopes.append(scope)
        }
        guard scopes.contains("openid") else {
            return .failure(ScopeRefusal(description: "this OpenID provider requires the openid scope"))
        }
        return .success(scopes.joined(separator: " "))
    }

    /// Exact string match, except that a native client's loopback redirect (`http://127.0.0.1` or `http://[::1]`)
    /// may use any port from 1 to 65535 (RFC 8252 §7.3). Fragments and user info are never accepted.
    package static func redirectURI(_ requested: String, matches registered: [String], isNative: Bool) -> Bool {
        guard let request = URLComponents(string: requested), request.fragment == nil, request.user == nil,
            request.password == nil, request.port.map(Self.tcpPorts.contains) ?? true
        else { return false }
        if registered.contains(requested) { return true }
        guard isNative, request.scheme == "http", let host = request.host, ["127.0.0.1", "::1", "[::1]"].contains(host)
        else { return false }
        return registered.contains { candidate in
            guard let allowed = URLComponents(string: candidate) else { return false }
            return allowed.scheme == "http" && allowed.host == host
                && allowed.percentEncodedPath
                    == request.percentEncodedPath
                && allowed.percentEncodedQuery == request.percentEncodedQuery
                && allowed.user == nil && allowed.fragment == nil
        }
    }

    /// The ports a redirect URI may name: 0 is no port one can listen on for a redirect, and TCP ends at 65535.
    static let tcpPorts = 1...65_535

    /// Whether `value` is a base64url SHA-256 digest without padding (43 characters): an S256 challenge, a JWK
    /// thumbprint.
    static func isBase64URLSHA256(_ value: String) -> Bool {
        value.utf8.count == 43
            && value.unicodeScalars.allSatisfy {
                CharacterSet.alphanumerics.contains($0) && $0.isASCII || $0 == "-" || $0 == "_"
            }
    }

    /// The redirect carrying an error (RFC 6749 §4.1.2.1) with `state` and `iss` (RFC 9207).
    package static func errorRedirect(
        redirectURI: String,
        error: String,
        description: String,
        state: String?,
        issuer: String
    ) -> String {
        responseRedirect(
            redirectURI: redirectURI,
            fields: [("error", error), ("error_description", description)],
            state: state,
            issuer: issuer
        )
    }

    /// The redirect carrying an authorization response (RFC 6749 §4.1.2, `code`; or §4.1.2.1, `error`), followed by
    /// `state` when the request had one and `iss` (RFC 9207), added to any query the redirect URI already has.
    package static func responseRedirect(
        redirectURI: String,
        fields: [(String, String)],
        state: String?,
        issuer: String
    ) -> String {
        var fields = fields
        if let state { fields.append(("state", state)) }
        fields.append(("iss", issuer))
        guard let url = URL(string: redirectURI) else { return redirectURI }
        return FormEncoding.appending(fields, to: url).absoluteString
    }
}
