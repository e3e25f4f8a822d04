/// `POST /admin/webhooks`: a new event webhook.
///
/// ```json
/// {"url": "https://hooks.example/limen", "events": ["user.*", "admin.client_created"], "description": "CRM"}
/// ```
package struct AdminWebhookRequest: AdminRequestBody, Sendable {
    /// The members ``AdminJSON`` accepts.
    package typealias Members = CodingKeys

    /// `url`: where deliveries go (`https`; loopback `http` with `allow_http_webhooks`).
    package var url: String
    /// `events`: the type patterns it receives (`*`, `user.*`, `user.signed_in`).
    package var events: [String]
    /// `description`: what it is for.
    package var description: String?

    /// The members, as named on the wire.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case url, events, description
    }
}

/// `PATCH /admin/webhooks/{id}`: the members to change; a member left out stays as it is.
package struct AdminWebhookPatch: AdminRequestBody, Sendable {
    /// The members ``AdminJSON`` accepts.
    package typealias Members = CodingKeys

    /// `url`: where deliveries go.
    package var url: String?
    /// `events`: the type patterns it receives.
    package var events: [String]?
    /// `description`: what it is for.
    package var description: String?

    /// The members, as named on the wire.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case url, events, description
    }
}
