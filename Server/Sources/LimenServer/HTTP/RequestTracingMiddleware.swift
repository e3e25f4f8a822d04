import HTTPTypes
import Hummingbird
import LimenServerCore
import Logging
import NIOCore
import Tracing

/// One server span per request (only with `otel_endpoint`: the router has it only then), parent of the request's
/// storage, password hashing and outgoing HTTP spans.
///
/// Named `{method} {route}` (`POST /flows/interactions/{id}`), with `http.request.method`, `http.route`,
/// `http.response.status_code` and `limen.request_id` (``RequestIDMiddleware``'s id, which runs outside it). It records
/// the route's template, never the path or the query: those carry interaction ids, codes, email-link tokens and login
/// hints (Hummingbird's own `TracingMiddleware` records the query).
///
/// The W3C `traceparent` (and `tracestate`) of a request continue the caller's trace only when the connected peer is
/// a trusted proxy (``TrustedProxies``); from anyone else the request starts a new trace, so no client can graft the
/// server's spans onto a trace of its choosing or pick their ids.
struct RequestTracingMiddleware: RouterMiddleware {
    typealias Context = LimenRequestContext

    /// The proxies whose trace context is continued.
    let proxies: TrustedProxies

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let method = request.method.rawValue
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 }
        let requestID = context.logger[metadataKey: RequestIDMiddleware<Context>.metadataKey]?.description
        return try await withSpan(
            route.map { "\(method) \($0)" } ?? method, context: parent(of: request, context: context), ofKind: .server
        ) { span in
            span.updateAttributes { attributes in
                attributes["http.request.method"] = method
                attributes["http.route"] = route
                attributes["limen.request_id"] = requestID
            }
            do {
                let response = try await next(request, context)
                Self.record(response.status, on: span)
                return response
            } catch {
                Self.record((error as? any HTTPResponseError)?.status ?? .internalServerError, on: span)
                throw error
            }
        }
    }

    /// The caller's trace context when the peer is a trusted proxy, else a new trace's.
    func parent(of request: Request, context: Context) -> InstrumentationContext {
        var parent = InstrumentationContext.topLevel
        guard let peer = context.remoteAddress?.ipAddress, proxies.trusts(peer: peer) else { return parent }
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HTTPFieldsExtractor())
        return parent
    }

    /// Writes `status` on `span`; a server error marks it failed (a client's error is not the server's).
    static func record(_ status: HTTPTypes.HTTPResponse.Status, on span: any Span) {
        span.attributes["http.response.status_code"] = status.code
        if status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }
}

/// Reads a propagator's fields (`traceparent`, `tracestate`) from a request's header fields.
struct HTTPFieldsExtractor: Extractor {
    func extract(key: String, from carrier: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { carrier[$0] }
    }
}
