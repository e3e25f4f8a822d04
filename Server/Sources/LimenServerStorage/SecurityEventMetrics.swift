import Metrics

/// The Prometheus counter of security events stored: `limen_security_events_total{type=…}`, counted once the events
/// were written with their change (an event of a change that did not happen is never counted). Each node counts what
/// it wrote, so the deployment's total is the sum over its nodes.
enum SecurityEventMetrics {
    /// The counter's name.
    static let label = "limen_security_events_total"

    /// Counts `events`, just stored.
    static func count(_ events: [SecurityEventRecord]) {
        for event in events {
            Counter(label: label, dimensions: [("type", event.type)]).increment()
        }
    }
}
