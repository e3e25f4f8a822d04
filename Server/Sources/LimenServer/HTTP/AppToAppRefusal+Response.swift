import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenWire

extension AppToAppRefusal {
    /// The answer: the OAuth error object (with `redirect` when the error also goes to the requesting app), never
    /// cached; a bearer challenge on a `401` or `403` (RFC 6750 §3), the resources' `DPoP` challenge for a proof.
    var response: Response {
        var body: [String: JSONValue] = ["error": .string(code), "error_description": .string(message)]
        if case .invalidRequest(_, _, let redirect?) = self { body["redirect"] = .string(redirect) }
        if case .proof(let challenge) = self {
            let answer = challenge.response
            var response = Responses.json(.object(body), status: answer.status, noStore: true)
            for field in answer.headers where field.name != .cacheControl { response.headers.append(field) }
            return response
        }
        var response = Responses.json(.object(body), status: status, noStore: true)
        switch self {
        case .missingToken:
            response.headers[.wwwAuthenticate] = #"Bearer realm="limen""#
        case .invalidToken, .notAppToAppHost:
            response.headers[.wwwAuthenticate] = #"Bearer realm="limen", error="\#(code)""#
        case .insufficientScope:
            response.headers[.wwwAuthenticate] = #"Bearer realm="limen", error="insufficient_scope", scope="openid""#
        case .loginRequired, .invalidRequest, .unknownApproval, .proof:
            break
        }
        return response
    }

    /// The status: `401` sign in again, `403` this token may not, `409` reauthenticate in the host app first, `400`
    /// a refused request or approval.
    private var status: HTTPResponse.Status {
        switch self {
        case .missingToken, .invalidToken: .unauthorized
        case .insufficientScope, .notAppToAppHost: .forbidden
        case .loginRequired: .conflict
        case .invalidRequest, .unknownApproval: .badRequest
        case .proof(let challenge): challenge.response.status
        }
    }
}

extension AppToAppAuthorization.Request {
    /// `{"client": {"id", "name", "logo_uri"}, "scopes", "consent_required", "approval"}`: the client as its
    /// branding presents it.
    var json: JSONValue {
        var client: [String: JSONValue] = [
            "id": .string(self.client.id), "name": .string(self.client.branding?.displayName ?? self.client.name),
        ]
        if let logo = self.client.branding?.logoURL { client["logo_uri"] = .string(logo) }
        return .object([
            "client": .object(client), "scopes": .array(scopes.map(JSONValue.string)),
            "consent_required": .bool(consentRequired), "approval": .string(approval),
        ])
    }
}
