import Foundation
import LimenWire

/// Turns an HTTP answer from a protocol endpoint into a decoded value or a typed ``OIDCError``.
///
/// The one place where statuses, OAuth error bodies, `Retry-After` and malformed JSON are classified, so that every
/// endpoint client reports failures the same way.
enum EndpointResponse {
    /// Sends `request` and classifies the outcome; returns the response when its status is 2xx.
    static func send(
        _ request: HTTPRequest,
        through transport: any HTTPTransport,
        endpoint: String
    ) async throws(OIDCError) -> HTTPResponse {
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw .network(error)
        }
        guard response.isSuccess else { throw classifyFailure(response, endpoint: endpoint) }
        return response
    }

    /// Sends `request` with `accessToken`, if any, and, with `dpop`, a DPoP proof (the token then under the `DPoP`
    /// scheme, otherwise `Bearer`); classifies the outcome as ``send(_:through:endpoint:)`` does.
    static func send(
        _ request: HTTPRequest,
        accessToken: String?,
        dpop: DPoPBinding?,
        through transport: any HTTPTransport,
        endpoint: String
    ) async throws(OIDCError) -> HTTPResponse {
        guard let dpop else {
            var authorized = request
            if let accessToken { authorized.headers["Authorization"] = "Bearer \(accessToken)" }
            return try await send(authorized, through: transport, endpoint: endpoint)
        }
        let response = try await dpop.send(request, accessToken: accessToken, through: transport)
        guard response.isSuccess else { throw classifyFailure(response, endpoint: endpoint) }
        return response
    }

    /// Sends `request` and decodes a 2xx JSON body as `Value`.
    static func decode<Value: Decodable>(
        _ type: Value.Type,
        sending request: HTTPRequest,
        through transport: any HTTPTransport,
        endpoint: String
    ) async throws(OIDCError) -> Value {
        let response = try await send(request, through: transport, endpoint: endpoint)
        return try decode(type, from: response.body, endpoint: endpoint)
    }

    /// Decodes a JSON body, turning decoding failures into ``OIDCError/invalidResponse(endpoint:reason:)``.
    static func decode<Value: Decodable>(_ type: Value.Type, from body: Data, endpoint: String) throws(OIDCError)
        -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let DecodingError.keyNotFound(key, _) {
            throw .invalidResponse(endpoint: endpoint, reason: "missing \(key.stringValue)")
        } catch let DecodingError.typeMismatch(_, context) {
            throw .invalidResponse(endpoint: endpoint, reason: "wrong type at \(context.codingPath.pathString)")
        } catch let DecodingError.valueNotFound(_, context) {
            throw .invalidResponse(endpoint: endpoint, reason: "null at \(context.codingPath.pathString)")
        } catch {
            throw .invalidResponse(endpoint: endpoint, reason: "not JSON")
        }
    }

    /// The typed error for a non-2xx answer: an OAuth error body wins; then 429/503 become rate limiting.
    static func classifyFailure(_ response: HTTPResponse, endpoint: String) -> OIDCError {
        if let oauth = OAuthError.fromErrorBody(response.body, httpStatus: response.status) {
            return .oauth(oauth)
        }
        switch response.status {
        case 429: return .network(.rateLimited(retryAfter: response.retryAfter()))
        case 503 where response.header("Retry-After") != nil:
            return .network(.rateLimited(retryAfter: response.retryAfter()))
        default: return .network(.httpStatus(response.status))
        }
    }
}

extension [any CodingKey] {
    fileprivate var pathString: String {
        isEmpty ? "the top level" : map(\.stringValue).joined(separator: ".")
    }
}
