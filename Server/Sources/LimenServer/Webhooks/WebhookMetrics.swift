import LimenServerCore
import LimenServerStorage
import Metrics

/// The Prometheus counter of webhook delivery attempts by outcome: `limen_webhook_deliveries_total{outcome=…}` with
/// `delivered`, `retrying` (a transient failure, tried again later) and `failed` (given up).
enum WebhookMetrics {
    /// The counter's name.
    static let label = "limen_webhook_deliveries_total"

    /// Counts one attempt that left its delivery `status`.
    @Sendable static func record(_ status: WebhookDeliveryStatus) {
        Counter(label: label, dimensions: [("outcome", outcome(status))]).increment()
    }

    /// The `outcome` label of `status`.
    static func outcome(_ status: WebhookDeliveryStatus) -> String {
        switch status {
        case .delivered: "delivered"
        case .pending: "retrying"
        case .failed: "failed"
        }
    }
}
