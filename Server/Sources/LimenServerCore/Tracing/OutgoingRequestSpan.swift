import Foundation
import LimenServerStorage
import Tracing

/// The span of one request this server sends to another (an upstream OpenID provider, Apple, a mail, SMS or event
/// webhook): the one helper every outgoing request goes through, so a slow sign-in shows the time it waited on others.
///
/// Named by the method (`POST`), of kind client, with the OpenTelemetry HTTP client attributes: `http.request.method`,
/// `server.address`, `server.port`, `url.full` without its query, user or fragment (a webhook's query may hold a
/// token), and `http.response.status_code`; a status of 400 or more, or an error, marks it failed. Sent by a
/// background service (the mail outbox), it starts a trace of its own. No trace context is sent along: the receivers
/// are other parties, which need not learn this server's trace ids.
///
/// ```swift
/// let status = try await OutgoingRequestSpan.run(method: "POST", url: url, status: { $0 }) {
///     try await post.send(body: body, headers: headers)
/// }
/// ```
package enum OutgoingRequestSpan {
    /// Runs `send`, which sends a `method` request to `url`, in a client span; `status` reads the answer's status code.
    package static func run<Response, Failure: Error>(
        method: String,
        url: @autoclosure () -> URL?,
        status: (Response) -> Int,
        _ send: () async throws(Failure) -> Response
    ) async throws(Failure) -> Response {
        try await OperationSpan.run(
            method, kind: .client, startsTrace: true,
            attributes: { attributes in
                attributes["http.request.method"] = method
                guard let url = url(), let host = url.host else { return }
                attributes["server.address"] = host
                attributes["server.port"] = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
                attributes["url.full"] = shown(url)
            },
            finish: { response, span in
                let code = status(response)
                span.attributes["http.response.status_code"] = code
                if code >= 400 { span.setStatus(SpanStatus(code: .error)) }
            }, send)
    }

    /// `url` without its user, password, query and fragment.
    static func shown(_ url: URL) -> String? {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return components.string
    }
}
