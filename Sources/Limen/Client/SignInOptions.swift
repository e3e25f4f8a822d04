import Foundation

/// Per-sign-in choices (GrabID's hints, OpenID Connect's prompt and max_age).
public struct SignInOptions: Sendable, Equatable {
    /// Scopes for this sign-in; `nil` uses the configuration's.
    public var scopes: [String]?
    /// Who is expected to sign in (`login_hint`), e.g. an email address to prefill.
    public var loginHint: String?
    /// The previous ID token, naming the expected user (`id_token_hint`).
    public var idTokenHint: String?
    /// How the provider should prompt, e.g. `["login"]` to force re-authentication or `["none"]` for silent SSO.
    public var prompt: [String]
    /// Maximum authentication age in seconds; the ID token's `auth_time` is then checked.
    public var maxAge: Int?
    /// Requested authentication context classes.
    public var acrValues: [String]
    /// Preferred languages for the provider's pages.
    public var uiLocales: [String]
    /// Further authorization parameters.
    public var additionalParameters: [String: String]

    /// Creates options; everything is optional.
    public init(
        scopes: [String]? = nil,
        loginHint: String? = nil,
        idTokenHint: String? = nil,
        prompt: [String] = [],
        maxAge: Int? = nil,
        acrValues: [String] = [],
        uiLocales: [String] = [],
        additionalParameters: [String: String] = [:]
    ) {
        self.scopes = scopes
        self.loginHint = loginHint
        self.idTokenHint = idTokenHint
        self.prompt = prompt
        self.maxAge = maxAge
        self.acrValues = acrValues
        self.uiLocales = uiLocales
        self.additionalParameters = additionalParameters
    }
}
