import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenWire

extension Responses {
    /// A JSON body carrying tokens or a token-endpoint error: `Cache-Control: no-store` and `Pragma: no-cache`
    /// (RFC 6749 §5.1).
    static func tokenJSON(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        var response = json(value, status: status, noStore: true)
        if let pragma = HTTPField.Name("Pragma") { response.headers[pragma] = "no-cache" }
        return response
    }
}
