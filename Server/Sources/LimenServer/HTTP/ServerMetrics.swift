import Hummingbird
import Metrics
import NIOCore
import Prometheus

/// Prometheus metrics for the server: every swift-metrics metric of the process (Hummingbird's request counters and
/// durations per route, method and status) lands in one registry that `GET /metrics` serves in the text format.
///
/// Call ``bootstrap()`` once at start (the executable and the tests do); before that, metrics are recorded nowhere.
public enum ServerMetrics {
    /// The registry `/metrics` serves.
    public static let registry = PrometheusCollectorRegistry()

    private static let bootstrapped: Void = {
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    }()

    /// Makes swift-metrics record into ``registry``; later calls do nothing.
    public static func bootstrap() {
        _ = bootstrapped
    }

    /// Adds request metrics to every route and `GET /metrics` (Prometheus text exposition format 0.0.4).
    static func add(to router: Router<some RequestContext>) {
        router.add(middleware: MetricsMiddleware())
        router.get("/metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
            )
        }
    }
}
