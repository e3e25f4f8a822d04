import HTTPTypes
import Hummingbird
import LimenServerCore
import Logging

/// Gives every request one id, used in every log line of that request and echoed in the `X-Request-Id` response
/// header, so an operator can follow a caller's report ("request 7f3a… failed") to the server's logs.
///
/// The id is the caller's `X-Request-Id` when it is a plausible one (1–128 characters of letters, digits and
/// `-._:@`), set for instance by a load balancer or the calling service; otherwise Hummingbird's own. It replaces
/// `hb.request.id` in `context.logger`, so Hummingbird's lines and Limen's carry the same value, and an error thrown
/// by a route (``HTTPResponseError``) gets the header too.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The header read and echoed.
    static var headerName: HTTPField.Name? { HTTPField.Name("X-Request-Id") }
    /// The logger metadata key the id is kept under (Hummingbird's own, which `context.id` reads).
    static var metadataKey: String { "hb.request.id" }
    /// The longest caller-supplied id kept.
    static var maximumLength: Int { 128 }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let name = Self.headerName else { return try await next(request, context) }
        var context = context
        let id = Self.acceptable(request.headers[name]) ?? context.id
        context.logger[metadataKey: Self.metadataKey] = .string(id)
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[name] = id
        return response
    }

    /// `value` when it may serve as a request id: short, and only characters that cannot split a log line or a
    /// header.
    static func acceptable(_ value: String?) -> String? {
        guard let value, !value.isEmpty, value.utf8.count <= maximumLength,
            value.utf8.allSatisfy({ byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                    UInt8(ascii: ":"), UInt8(ascii: "@"):
                    true
                default: false
                }
            })
        else { return nil }
        return value
    }
}
