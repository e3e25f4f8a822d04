import Foundation
import LimenOIDC

/// Another app's sign-in, as the provider's own app (the host) received it: who asks, for what, and the answer to
/// give. Made by ``AuthClient/appToAppRequest(for:)``; answer it once with ``approve()`` or ``deny()``, then open the
/// URL they return, which sends the person back to the requesting app.
///
/// ```swift
/// let request = try await client.appToAppRequest(for: url)
/// let allowed = request.consentRequired ? await askPerson(request.clientName, request.scopes) : true
/// let redirect = allowed ? try await request.approve() : try await request.deny()
/// await UIApplication.shared.open(redirect)
/// ```
public struct AppToAppRequest: Sendable {
    /// The requesting app's `client_id`.
    public let clientID: String
    /// The requesting app's name, as the provider registered it.
    public let clientName: String
    /// The requesting app's logo, when the provider has one.
    public let logoURL: URL?
    /// The scopes the requesting app asks for, as the provider will grant them.
    public let scopes: [String]
    /// Whether the person must be asked first: `false` when they already consented to these scopes for this app, or
    /// the app is one of the provider's own.
    public let consentRequired: Bool
    /// The provider's handle on this request, sent back with the decision.
    let approval: String
    /// Where the provider may send the person: the requesting app's redirect URI.
    let redirect: CallbackMatcher
    /// The host's client, whose session answers.
    let host: AuthClient

    /// The request the provider described in `document` (the answer of `POST /authorize/app2app`).
    init(document: [String: JSONValue], redirect: CallbackMatcher, host: AuthClient) throws(AppToAppError) {
        guard let client = document["client"]?.objectValue, let id = client["id"]?.stringValue,
            let scopes = document["scopes"]?.stringArrayValue, let approval = document["approval"]?.stringValue,
            let consentRequired = document["consent_required"]?.boolValue
        else { throw .malformedResponse("the request lacks client.id, scopes, consent_required or approval") }
        clientID = id
        clientName = client["name"]?.stringValue ?? id
        logoURL = client["logo_uri"]?.stringValue.flatMap { URL(string: $0) }
        self.scopes = scopes
        self.consentRequired = consentRequired
        self.approval = approval
        self.redirect = redirect
        self.host = host
    }

    /// Signs the person into the requesting app as the host's signed-in user.
    /// - Returns: The requesting app's redirect URI with the authorization code; open it.
    /// - Throws: ``LimenError/appToApp(_:)`` with ``AppToAppError/approvalExpired`` for a request answered already or
    ///   expired (ask again), the provider's refusal; ``LimenError/notSignedIn`` and the network's errors.
    public func approve() async throws(LimenError) -> URL {
        try await host.answerAppToApp(self, decision: "approve")
    }

    /// Refuses the sign-in.
    /// - Returns: The requesting app's redirect URI with `error=access_denied`; open it, so that the requesting app
    ///   learns the answer.
    /// - Throws: As ``approve()``.
    public func deny() async throws(LimenError) -> URL {
        try await host.answerAppToApp(self, decision: "deny")
    }
}
