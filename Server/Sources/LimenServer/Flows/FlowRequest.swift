import Foundation
import LimenServerStorage

/// The authorization request an interaction answers, as its start carried it (what `/authorize` carries for a native
/// client), kept with the interaction as JSON.
struct FlowRequest: Sendable, Equatable, Codable {
    /// The registered redirect URI the code is for.
    var redirectURI: String
    /// The granted scopes, space-separated.
    var scope: String
    /// The client's `state`, returned with the code.
    var state: String?
    /// The client's `nonce`, put into the ID token.
    var nonce: String?
    /// The PKCE challenge (S256) the code's redemption must answer.
    var codeChallenge: String
    /// The `login_hint`: an email address to fill in.
    var loginHint: String?
    /// The `ui_locales`.
    var uiLocales: String?
    /// The `acr_values`, kept for the flows that will ask for more.
    var acrValues: String?
    /// Whether the hosted pages run this interaction for a pending browser request (``FlowPageRoutes``); such an
    /// interaction is never continued through `/flows/interactions`.
    var hostedPage: Bool?
    /// The user signed in on the device when the flow started (the subject of the start's bearer access token): the
    /// credentials the flow finds are linked to them, or replace them, by ``AccountLinking``'s cases.
    var signedInSubject: String?
    /// The start's `allow_migration`: whether a guest signed in on the device may be replaced by the account the
    /// credentials belong to, its data merged in (`true`) or not (`false`); `nil` asks first (`migration_required`).
    var allowMigration: Bool?

    private enum CodingKeys: String, CodingKey {
        case signedInSubject = "signed_in_subject"
        case allowMigration = "allow_migration"
        case redirectURI = "redirect_uri"
        case scope, state, nonce
        case codeChallenge = "code_challenge"
        case loginHint = "login_hint"
        case uiLocales = "ui_locales"
        case acrValues = "acr_values"
        case hostedPage = "hosted_page"
    }
}

/// What an interaction has learnt so far, kept with it as JSON.
struct FlowContext: Sendable, Equatable, Codable {
    /// The email address entered (or hinted).
    var email: String?
    /// The user identified (signed in or created).
    var subject: String?
    /// Whether this interaction created the user.
    var createdUser: Bool?
    /// Whether a code sent to ``email`` came back in this interaction.
    var emailProven: Bool?
    /// While the consent node is shown: what runs once the person allows.
    var consent: FlowConsentState?
    /// The guest signed in on the device whom the identified account replaces when the interaction completes.
    var replacedGuest: String?
    /// What an `IDP` collector's sign-in brought back, until the app continues the interaction with its code.
    var federation: FlowFederationResult?

    /// A new interaction's context: the `login_hint` filled in when it is an email address.
    init(loginHint: String?) {
        email = loginHint.map(Accounts.normalise).flatMap { Accounts.isPlausibleEmail($0) ? $0 : nil }
    }

    /// A context with these facts.
    init(email: String? = nil, subject: String? = nil, createdUser: Bool? = nil, emailProven: Bool? = nil) {
        (self.email, self.subject, self.createdUser, self.emailProven) = (email, subject, createdUser, emailProven)
    }
}

extension FlowInteractionRecord {
    /// The request, decoded.
    func decodedRequest() throws(StorageError) -> FlowRequest {
        try Self.decode(FlowRequest.self, from: request, column: "request")
    }

    /// The context, decoded.
    func decodedContext() throws(StorageError) -> FlowContext {
        try Self.decode(FlowContext.self, from: context, column: "context")
    }

    /// `value` as stored in a JSON column.
    static func encode(_ value: some Encodable) -> Data {
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
