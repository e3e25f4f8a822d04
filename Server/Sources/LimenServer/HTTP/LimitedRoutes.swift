import HTTPTypes
import Hummingbird
import LimenServerCore

/// The requests a per-address limit counts (``RateLimitMiddleware``): every POST, or the routes named, by method and
/// route pattern.
///
/// A route is recognised by the pattern the router matched (`context.endpointPath`, such as `/flows/{flow}`), never by
/// the request's raw path: the router ignores empty segments and a trailing `/`, so `//login`, `/login/` and `//login/`
/// reach `/login`'s handler and are counted as `/login` is.
///
/// ```swift
/// let routes = LimitedRoutes([(.get, "/authorize"), (.post, "/flows/:flow")])
/// routes.counts(.post, route: "/flows/{flow}")  // true
/// ```
struct LimitedRoutes: Sendable {
    /// A route: its method and its pattern as the router prints it.
    private struct Route: Hashable {
        let method: HTTPRequest.Method
        let pattern: String
    }

    private let everyPost: Bool
    private let routes: Set<Route>

    /// Every POST, whatever its route (or none).
    static let everyPost = LimitedRoutes(everyPost: true, routes: [])

    private init(everyPost: Bool, routes: Set<Route>) {
        self.everyPost = everyPost
        self.routes = routes
    }

    /// The routes `routes`, each a method and the path it was registered with.
    init(_ routes: [(method: HTTPRequest.Method, path: RouterPath)]) {
        self.init(everyPost: false, routes: Set(routes.map { Route(method: $0.method, pattern: $0.path.description) }))
    }

    /// Whether a request with `method` that the router matched to the route pattern `route` (`nil` when it matched
    /// none) is counted.
    func counts(_ method: HTTPRequest.Method, route: String?) -> Bool {
        if everyPost { return method == .post }
        guard let route else { return false }
        return routes.contains(Route(method: method, pattern: route))
    }
}
