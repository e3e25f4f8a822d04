import Foundation
import Hummingbird
import LimenServerCore

extension PresentedAccessToken {
    /// The token of `request`'s `Authorization: Bearer` (RFC 6750 §2.1) or `Authorization: DPoP` (RFC 9449 §7.1)
    /// header, with the request's DPoP proofs; `nil` without such a header.
    init?(in request: Request) {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let scheme: Scheme
        switch parts[0].lowercased() {
        case "bearer": scheme = .bearer
        case "dpop": scheme = .dpop
        default: return nil
        }
        self.init(bearer: parts[1].trimmingCharacters(in: .whitespaces), of: request)
        self.scheme = scheme
    }

    /// `token`, sent by `request` as a bearer token (in its form body, RFC 6750 §2.2), with the request's DPoP proofs.
    init(bearer token: String, of request: Request) {
        self.init(
            token: token, scheme: .bearer, proofs: DPoPFields.proofs(in: request), method: request.method.rawValue,
            path: request.uri.path)
    }
}
