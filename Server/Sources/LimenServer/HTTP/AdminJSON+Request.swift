import Foundation
import Hummingbird
import LimenServerCore
import LimenServerWire
import NIOCore

extension AdminJSON {
    /// The body of `request` decoded as `Body`: `application/json`, at most ``AdminJSON/maximumBodySize``, read
    /// strictly (``AdminJSON/decode(_:from:)``); a refusal is ``AdminError/invalidRequest(_:)`` naming the member at
    /// fault.
    static func decode<Body: AdminRequestBody>(_: Body.Type, from request: Request) async throws(AdminError) -> Body {
        guard MediaType.matches(request.headers[.contentType], mediaType) else { throw .unsupportedMediaType }
        var request = request
        guard let buffer = try? await request.collectBody(upTo: maximumBodySize) else { throw .bodyTooLarge }
        do {
            return try decode(Body.self, from: Data(buffer.readableBytesView))
        } catch {
            throw .invalidRequest(error.description)
        }
    }
}
