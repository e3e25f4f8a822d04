import Foundation
import LimenWire

/// How a client proves its identity to the token, revocation and introspection endpoints (RFC 6749 §2.3).
public enum ClientAuthentication: Sendable, Equatable {
    /// A public client: only `client_id` is sent (native and browser apps; PKCE protects the code).
    case none(clientID: String)
    /// HTTP Basic with the form-encoded id and secret (RFC 6749 §2.3.1).
    case clientSecretBasic(clientID: String, secret: String)
    /// `client_id` and `client_secret` in the form body.
    case clientSecretPost(clientID: String, secret: String)

    /// The client identifier.
    public var clientID: String {
        switch self {
        case .none(let clientID), .clientSecretBasic(let clientID, _), .clientSecretPost(let clientID, _): clientID
        }
    }

    /// Adds this authentication to a form request's fields and headers.
    func apply(to fields: inout [(String, String)], headers: inout [String: String]) {
        switch self {
        case .none(let clientID):
            fields.append(("client_id", clientID))
        case .clientSecretBasic(let clientID, let secret):
            let credentials = "\(FormEncoding.escape(clientID)):\(FormEncoding.escape(secret))"
            headers["Authorization"] = "Basic " + Data(credentials.utf8).base64EncodedString()
        case .clientSecretPost(let clientID, let secret):
            fields.append(("client_id", clientID))
            fields.append(("client_secret", secret))
        }
    }

    /// A form `POST` to `url` carrying `fields` and this authentication.
    func formRequest(url: URL, fields: [(String, String)]) -> HTTPRequest {
        var allFields = fields
        var headers: [String: String] = [:]
        apply(to: &allFields, headers: &headers)
        return .form(url: url, allFields, headers: headers)
    }
}
