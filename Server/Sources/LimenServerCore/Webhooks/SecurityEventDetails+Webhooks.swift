extension SecurityEventDetails {
    /// The event webhook a change concerns, and the members it changed (their names: `url`, `events`, `description`),
    /// never its secret.
    public static func webhook(_ id: String, changed fields: [String] = []) -> SecurityEventDetails {
        var details = ["webhook": id]
        if !fields.isEmpty { details["fields"] = fields.sorted().joined(separator: ",") }
        return SecurityEventDetails(details)
    }

    /// The delivery of an event webhook an admin sent again.
    public static func webhookDelivery(_ id: String, webhook: String) -> SecurityEventDetails {
        SecurityEventDetails(["webhook": webhook, "delivery": id])
    }
}
