import Foundation
import Hummingbird
import LimenServerCore
import LimenServerWire

extension FormFields {
    /// The form of a request to `/token`, `/revoke`, `/introspect` or `/device_authorization`; a refusal to read it is
    /// the endpoint's `invalid_request` (with 415 for another media type and 413 for an oversized body).
    static func read(tokenRequest request: Request) async throws(TokenEndpointError) -> FormFields {
        switch await read(from: request) {
        case .success(let form): return form
        case .failure(.unsupportedMediaType): throw .unsupportedMediaType
        case .failure(.tooLarge): throw .bodyTooLarge
        case .failure(let refusal): throw .invalidRequest(refusal.description)
        }
    }
}
