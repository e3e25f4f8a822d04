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
    /// For a flow started while a guest is signed in (``AuthClient/startFlow(_:options:)``): whether the account the
    /// flow's credentials lead to may replace the guest (`allow_migration`). `nil` asks first: the server answers an
    /// error node whose details name `migration_required`; `true` carries the guest's unencrypted profile fields over
    /// to the account; `false` drops them. Either way the guest is deleted when the flow completes. A code sent by
    /// email is spent once, so a flow that signs in with one should say this up front.
    public var allowMigration: Bool?
    /// An upstream provider of Limen Server to sign in with at once (an `id` of its `identity_providers`): the browser
    /// skips Limen's sign-in page and goes straight to "Continue with …" that provider (`idp_hint`; Rownd's
    /// `requestSignIn(with:)`). A provider the server does not know is ignored there, and the page shown.
    public var identityProvider: String?

    /// Creates options; everything is optional.
    public init(
        scopes: [String]? = nil,
        loginHint: String? = nil,
        idTokenHint: String? = nil,
        prompt: [String] = [],
        maxAge: Int? = nil,
        acrValues: [String] = [],
        uiLocales: [String] = [],
        additionalParameters: [String: String] = [:],
        allowMigration: Bool? = nil,
        identityProvider: String? = nil
    ) {
        self.scopes = scopes
        self.loginHint = loginHint
        self.idTokenHint = idTokenHint
        self.prompt = prompt
        self.maxAge = maxAge
        self.acrValues = acrValues
        self.uiLocales = uiLocales
        self.additionalParameters = additionalParameters
        self.allowMigration = allowMigration
        self.identityProvider = identityProvider
    }
}
