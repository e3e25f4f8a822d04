import Foundation

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

    private enum CodingKeys: String, CodingKey {
        case redirectURI = "redirect_uri"
        case scope, state, nonce
        case codeChallenge = "code_challenge"
        case loginHint = "login_hint"
        case uiLocales = "ui_locales"
        case acrValues = "acr_values"
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
