/// An event webhook's ID (`/admin/webhooks/:id`).
struct WebhookID: PathParameter {
    static let parameterName = "id"
    let rawValue: String
}

/// A webhook delivery's ID (`/admin/webhooks/:id/deliveries/:delivery`): the `webhook-id` its POSTs carry.
struct WebhookDeliveryID: PathParameter {
    static let parameterName = "delivery"
    let rawValue: String
}
