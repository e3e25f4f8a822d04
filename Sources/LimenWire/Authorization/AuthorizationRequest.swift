import Foundation

/// An OpenID Connect authorization request with PKCE, `state` and `nonce` (OpenID Connect Core §3.1.2.1,
/// RFC 7636, RFC 9700).
///
/// The request keeps the secrets needed to finish the flow (PKCE verifier, state, nonce); only their public parts
/// appear in ``url(authorizationEndpoint:)``.
///
/// ```swift
/// var request = AuthorizationRequest(clientID: "app", redirectURI: callback, scopes: ["profile", "email"])
/// request.loginHint = "alice@example.com"
/// let url = request.url(authorizationEndpoint: metadata.authorizationEndpoint)
/// ```
public struct AuthorizationRequest: Sendable, Equatable {
    /// The client identifier.
    public var clientID: String
    /// Where the provider sends the user back; must be registered exactly.
    public var redirectURI: URL
    /// Requested scopes; `openid` is always sent, first, whether listed or not.
    public var scopes: [String]
    /// The CSRF token echoed back in the response.
    public var state: String
    /// The value the ID token's `nonce` claim must carry.
    public var nonce: String
    /// The PKCE pair; its challenge is sent, its verifier kept for the token request.
    public var pkce: PKCE
    /// A hint about who is signing in (`login_hint`), such as an email address.
    public var loginHint: String?
    /// A previously issued ID token naming the expected user (`id_token_hint`).
    public var idTokenHint: String?
    /// How the provider should prompt (`prompt`), for example `["login"]`, `["none"]` or `["consent"]`.
    public var prompt: [String]
    /// The maximum authentication age in seconds (`max_age`); the ID token must then carry `auth_time`.
    public var maxAge: Int?
    /// Requested authentication context classes (`acr_values`).
    public var acrValues: [String]
    /// Preferred languages for the provider's pages (`ui_locales`).
    public var uiLocales: [String]
    /// A request object JWT (`request`, OpenID Connect Core §6.1).
    public var requestObject: String?
    /// The thumbprint of the DPoP key the code will be redeemed with (`dpop_jkt`, RFC 9449 §10): the provider binds the
    /// code to it, so a code intercepted on the way back is worthless without the key.
    public var dpopJKT: String?
    /// Further parameters, sent after the standard ones; they never replace a standard parameter.
    public var additionalParameters: [String: String]

    /// Creates a request with a fresh `state`, `nonce` and PKCE pair.
    public init(
        clientID: String,
        redirectURI: URL,
        scopes: [String] = [],
        state: String = RandomToken.make(),
        nonce: String = RandomToken.make(),
        pkce: PKCE = PKCE()
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scopes = scopes
        self.state = state
        self.nonce = nonce
        self.pkce = pkce
        self.prompt = []
        self.acrValues = []
        self.uiLocales = []
        self.additionalParameters = [:]
    }

    /// The scope value as sent: `openid` first, then the others without duplicates.
    public var scopeValue: String {
        var seen: Set<String> = ["openid"]
        return (["openid"] + scopes.filter { seen.insert($0).inserted }).joined(separator: " ")
    }

    /// The parameters in the order they are sent.
    public var parameters: [(String, String)] {
        var fields: [(String, String)] = [
            ("response_type", "code"),
            ("client_id", clientID),
            ("redirect_uri", redirectURI.absoluteString),
            ("scope", scopeValue),
            ("state", state),
            ("nonce", nonce),
            ("code_challenge", pkce.challenge),
            ("code_challenge_method", pkce.method),
        ]
        let optional: [(String, String?)] = [
            ("login_hint", loginHint),
            ("id_token_hint", idTokenHint),
            ("prompt", prompt.isEmpty ? nil : prompt.joined(separator: " ")),
            ("max_age", maxAge.map(String.init)),
            ("acr_values", acrValues.isEmpty ? nil : acrValues.joined(separator: " ")),
            ("ui_locales", uiLocales.isEmpty ? nil : uiLocales.joined(separator: " ")),
            ("request", requestObject),
            ("dpop_jkt", dpopJKT),
        ]
        fields += FormEncoding.present(optional)
        let standard = Set(fields.map(\.0))
        fields += additionalParameters.sorted { $0.key < $1.key }.filter { !standard.contains($0.key) }.map {
            ($0.key, $0.value)
        }
        return fields
    }

    /// The URL to open in the user agent, keeping any query the endpoint already has.
    public func url(authorizationEndpoint: URL) -> URL {
        FormEncoding.appending(parameters, to: authorizationEndpoint)
    }
}
