import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenWire
import NIOCore

/// Response builders shared by the routes.
enum Responses {
    /// A JSON body; `noStore` adds `Cache-Control: no-store` (for anything carrying secrets or errors).
    ///
    /// Written by ``JSONValue/serialized()`` (members sorted), several times faster than `JSONEncoder`: this is the
    /// body of every token, introspection and userinfo answer.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, noStore: Bool = false) -> Response {
        json(bytes: value.serialized(), status: status, noStore: noStore)
    }

    /// The error object of OAuth (RFC 6749 §5.2) that every JSON refusal of the server uses:
    /// `{"error": code, "error_description": description}`.
    static func errorObject(_ code: String, description: String) -> JSONValue {
        .object(["error": .string(code), "error_description": .string(description)])
    }

    /// A JSON refusal: ``errorObject(_:description:)`` with `status`, never cached.
    static func jsonError(_ code: String, description: String, status: HTTPResponse.Status) -> Response {
        json(errorObject(code, description: description), status: status, noStore: true)
    }

    /// Any `Encodable` value as a JSON body (keys sorted), like ``json(_:status:noStore:)``; a value that cannot be
    /// encoded is a `500 server_error` (which ``ServerErrorLogMiddleware`` logs), never a `{}` under `status`.
    static func json(
        encoding value: some Encodable,
        status: HTTPResponse.Status = .ok,
        noStore: Bool = false
    ) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else {
            return jsonError(
                "server_error", description: "The answer could not be encoded.", status: .internalServerError)
        }
        return json(bytes: data, status: status, noStore: noStore)
    }

    private static func json(bytes: some Sequence<UInt8>, status: HTTPResponse.Status, noStore: Bool) -> Response {
        var headers: HTTPFields = [.contentType: "application/json", .xContentTypeOptions: "nosniff"]
        if noStore { headers[.cacheControl] = "no-store" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// A small HTML page; the text is escaped.
    static func html(title: String, message: String, status: HTTPResponse.Status) -> Response {
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"></head>
            <body><main><h1>\(escape(title))</h1><p>\(escape(message))</p></main></body></html>

            """
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .xContentTypeOptions: "nosniff",
            .contentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'",
        ]
        if let referrerPolicy = HTTPField.Name("Referrer-Policy") { headers[referrerPolicy] = "no-referrer" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    /// A `302 Found` to `location`.
    static func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
