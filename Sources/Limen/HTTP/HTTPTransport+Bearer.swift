import LimenOIDC

extension HTTPTransport {
    /// Sends `request` with `token` as a bearer token (`Authorization: Bearer`, RFC 6750 §2.1).
    func send(_ request: HTTPRequest, bearer token: String) async throws(LimenError) -> HTTPResponse {
        var authorized = request
        authorized.headers["Authorization"] = "Bearer \(token)"
        do {
            return try await send(authorized)
        } catch {
            throw LimenError(error)
        }
    }
}
