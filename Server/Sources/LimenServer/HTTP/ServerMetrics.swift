import Hummingbird
import LimenServerCore
import LimenServerStorage
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

    /// Adds request metrics to every route and `GET /metrics` (Prometheus text exposition format 0.0.4) for the clients
    /// `access` lets in.
    static func add<Context: RemoteAddressRequestContext>(
        to router: Router<Context>,
        access: MetricsAccess,
        proxies: TrustedProxies
    ) {
        router.add(middleware: MetricsMiddleware())
        guard access != .off else { return }
        router.get("/metrics") { request, context in
            if let refusal = access.refusal(of: request, peer: context.remoteAddress, proxies: proxies) {
                return refusal.response
            }
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
            )
        }
    }
}
