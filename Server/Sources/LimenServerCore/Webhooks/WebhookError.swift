import LimenServerStorage

/// Why a webhook cannot be registered or changed as asked.
package enum WebhookError: Error, Sendable, Equatable {
    /// The URL is not `https` (or loopback `http` where allowed), or is malformed.
    case invalidURL
    /// No event pattern was given.
    case noEvents
    /// A pattern matches no known event type.
    case unknownEventPattern(String)
    /// The description is longer than ``Webhooks/maximumDescriptionLength``.
    case descriptionTooLong
    /// The store failed.
    case storage(StorageError)

    /// A human message naming the member at fault.
    package var message: String {
        switch self {
        case .invalidURL: "url: must be an https URL (http only to a loopback address, with allow_http_webhooks)"
        case .noEvents: "events: at least one pattern is needed"
        case .unknownEventPattern(let pattern): "events: \(pattern) matches no event type"
        case .descriptionTooLong: "description: at most \(Webhooks.maximumDescriptionLength) characters"
        case .storage: "the server could not complete the request"
        }
    }
}
