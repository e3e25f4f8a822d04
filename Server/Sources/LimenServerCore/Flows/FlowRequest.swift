import Foundation
import LimenServerStorage

/// The authorization request an interaction answers, as its start carried it (what `/authorize` carries for a native
/// client), kept with the interaction as JSON.
package struct FlowRequest: Sendable, Equatable, Codable {
    /// The registered redirect URI the code is for.
    package var redirectURI: String
    /// The granted scopes, space-separated.
    package var scope: String
    /// The client's `state`, returned with the code.
    package var state: String?
    /// The client's `nonce`, put into the ID token.
    package var nonce: String?
    /// The PKCE challenge (S256) the code's redemption must answer.
    package var codeChallenge: String
    /// The `login_hint`: an email address to fill in.
    package var loginHint: String?
    /// The `ui_locales`.
    package var uiLocales: String?
    /// The `acr_values` this server knows, as the start carried them.
    package var acrValues: String?
    /// The level `complete` must reach (``AuthenticationLevel/required(acrValues:client:)``), asking for the missing
    /// step when the first falls short.
    package var requiredLevel: AuthenticationLevel?
    /// Whether the hosted pages run this interaction for a pending browser request (``FlowPageRoutes``); such an
    /// interaction is never continued through `/flows/interactions`.
    package var hostedPage: Bool?
    /// The user signed in on the device when the flow started (the subject of the start's bearer access token): the
    /// credentials the flow finds are linked to them, or replace them, by ``AccountLinking``'s cases.
    package var signedInSubject: String?
    /// The start's `allow_migration`: whether a guest signed in on the device may be replaced by the account the
    /// credentials belong to, its data merged in (`true`) or not (`false`); `nil` asks first (`migration_required`).
    package var allowMigration: Bool?
    /// The start's `dpop_jkt` (RFC 9449 §10): the code is redeemed only with a DPoP proof by this key.
    package var proofKey: String?

    /// Makes it of its parts.
    package init(
        redirectURI: String, scope: String, state: String? = nil, nonce: String? = nil, codeChallenge: String,
        loginHint: String? = nil, uiLocales: String? = nil, acrValues: String? = nil,
        requiredLevel: AuthenticationLevel? = nil, hostedPage: Bool? = nil, signedInSubject: String? = nil,
        allowMigration: Bool? = nil, proofKey: String? = nil
    ) {
        self.redirectURI = redirectURI
        self.scope = scope
        self.state = state
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.loginHint = loginHint
        self.uiLocales = uiLocales
        self.acrValues = acrValues
        self.requiredLevel = requiredLevel
        self.hostedPage = hostedPage
        self.signedInSubject = signedInSubject
        self.allowMigration = allowMigration
        self.proofKey = proofKey
    }

    private enum CodingKeys: String, CodingKey {
        case signedInSubject = "signed_in_subject"
        case allowMigration = "allow_migration"
        case redirectURI = "redirect_uri"
        case scope, state, nonce
        case codeChallenge = "code_challenge"
        case loginHint = "login_hint"
        case uiLocales = "ui_locales"
        case acrValues = "acr_values"
        case requiredLevel = "required_acr"
        case hostedPage = "hosted_page"
        case proofKey = "dpop_jkt"
    }
}

/// What an interaction has learnt so far, kept with it as JSON.
package struct FlowContext: Sendable, Equatable, Codable {
    /// The email address entered (or hinted).
    package var email: String?
    /// The user identified (signed in or created).
    package var subject: String?
    /// Whether this interaction created the user.
    package var createdUser: Bool?
    /// Whether a code sent to ``email`` came back in this interaction.
    package var emailProven: Bool?
    /// The phone number (E.164) a code was sent to by SMS in this interaction.
    package var phone: String?
    /// The guest signed in on the device whom the identified account replaces when the interaction completes.
    package var replacedGuest: String?
    /// What an `IDP` collector's sign-in brought back, until the app continues the interaction with its code.
    package var federation: FlowFederationResult?
    /// The passkey ceremony the current node's `PASSKEY` shows, until it is answered.
    package var passkey: PasskeyChallenge?
    /// How the user has authenticated in this interaction so far (the ID token's `amr`), none when nothing
    /// authenticated them.
    package var methods = AuthenticationMethods()
    /// How the first step signed the user in, as `user.signed_in` records it.
    package var method: SignInMethod?
    /// The second step of a two-step sign-in, once the user's first step asked for one.
    package var secondStep: SecondStep?
    /// The authenticator-app secret a setup node shows, until a code of it turns two-step sign-in on.
    package var totpEnrolment: TOTPEnrolment?
    /// Text the current node's `LABEL`s show for this answer only, never stored: the setup's URI and secret (shown
    /// again from ``totpEnrolment`` each time), and the new recovery codes (shown once).
    package var shown: [String: String] = [:]

    private enum CodingKeys: String, CodingKey {
        case email, subject, createdUser, emailProven, phone, replacedGuest, federation, passkey
        case secondStep, totpEnrolment, method
        case methods = "amr"
    }

    /// The context once a first step identified the user by `methods`, signing in by `method`: what an earlier step
    /// proved (perhaps of someone else) counts no more.
    package func authenticated(by methods: some Sequence<AuthenticationMethod>, as method: SignInMethod)
        -> FlowContext
    {
        var context = self
        context.methods = AuthenticationMethods(methods)
        context.method = method
        return context
    }

    /// The context once the identified user has also authenticated by `methods` (a second step).
    package func alsoAuthenticated(by methods: some Sequence<AuthenticationMethod>) -> FlowContext {
        var context = self
        context.methods = self.methods.adding(methods)
        return context
    }

    /// A new interaction's context: the `login_hint` filled in when it is an email address.
    package init(loginHint: String?) {
        email = loginHint.map(Accounts.normalise).flatMap { Accounts.isPlausibleEmail($0) ? $0 : nil }
    }

    /// A context with these facts.
    package init(email: String? = nil, subject: String? = nil, createdUser: Bool? = nil, emailProven: Bool? = nil) {
        (self.email, self.subject, self.createdUser, self.emailProven) = (email, subject, createdUser, emailProven)
    }

    /// Decodes a stored context; one stored before methods were kept has none.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        subject = try container.decodeIfPresent(String.self, forKey: .subject)
        createdUser = try container.decodeIfPresent(Bool.self, forKey: .createdUser)
        emailProven = try container.decodeIfPresent(Bool.self, forKey: .emailProven)
        phone = try container.decodeIfPresent(String.self, forKey: .phone)
        replacedGuest = try container.decodeIfPresent(String.self, forKey: .replacedGuest)
        federation = try container.decodeIfPresent(FlowFederationResult.self, forKey: .federation)
        passkey = try container.decodeIfPresent(PasskeyChallenge.self, forKey: .passkey)
        methods = try container.decodeIfPresent(AuthenticationMethods.self, forKey: .methods) ?? AuthenticationMethods()
        secondStep = try container.decodeIfPresent(SecondStep.self, forKey: .secondStep)
        totpEnrolment = try container.decodeIfPresent(TOTPEnrolment.self, forKey: .totpEnrolment)
        // A method this version does not know reads as none (the event then falls back to the `amr`).
        method = (try? container.decodeIfPresent(SignInMethod.self, forKey: .method)) ?? nil
    }
}

extension FlowInteractionRecord {
    /// The request, decoded.
    package func decodedRequest() throws(StorageError) -> FlowRequest {
        try Self.decode(FlowRequest.self, from: request, column: "request")
    }

    /// The context, decoded.
    package func decodedContext() throws(StorageError) -> FlowContext {
        try Self.decode(FlowContext.self, from: context, column: "context")
    }

    /// `value` as stored in a JSON column.
    package static func encode(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    private static func decode<Value: Decodable>(_: Value.Type, from data: Data, column: String) throws(StorageError)
        -> Value
    {
        guard let value = try? JSONDecoder().decode(Value.self, from: data) else {
            throw .corruptRow("flow_interactions.\(column) is not the expected JSON")
        }
        return value
    }
}
