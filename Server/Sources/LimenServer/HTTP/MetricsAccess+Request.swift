import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import NIOCore

extension MetricsAccess {
    /// Why `request` from `peer` may not read the metrics, or `nil` when it may.
    func refusal(of request: Request, peer: SocketAddress?, proxies: TrustedProxies) -> MetricsRefusal? {
        switch self {
        case .everyone:
            return nil
        case .off:
            return .notServed
        case .loopback:
            let client = proxies.clientAddress(of: request, peer: peer)
            return Self.isLoopback(client) ? nil : .notLoopback
        case .bearerToken(let digest):
            guard let token = BearerChallenge.token(in: request), SHA256.hash(data: Data(token.utf8)) == digest
            else { return .missingToken }
            return nil
        }
    }
}

/// Why a request may not read `/metrics`, and how it is answered.
enum MetricsRefusal: Sendable, Equatable {
    /// Metrics are off: `404`, as for any unknown path.
    case notServed
    /// Loopback access and a client elsewhere: `403`.
    case notLoopback
    /// Token access and no (or another) token: `401` with a Bearer challenge (RFC 6750 §3).
    case missingToken

    /// The answer.
    var response: Response {
        switch self {
        case .notServed:
            return Response(status: .notFound)
        case .notLoopback:
            return Responses.jsonError(
                "forbidden", description: "metrics are served to this machine only", status: .forbidden)
        case .missingToken:
            var response = Responses.jsonError(
                "invalid_token", description: "metrics need the metrics bearer token", status: .unauthorized)
            response.headers[.wwwAuthenticate] = #"Bearer realm="metrics", error="invalid_token""#
            return response
        }
    }
}
