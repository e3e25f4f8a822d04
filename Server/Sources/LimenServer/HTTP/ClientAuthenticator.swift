import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire

/// Authenticates the client at `/token`, `/revoke` and `/introspect` (RFC 6749 §2.3).
///
/// Methods: `client_secret_basic` (HTTP Basic, id and secret form-url-encoded first, §2.3.1), `client_secret_post`
/// (`client_id` and `client_secret` in the body) and `none` (a public client names itself with `client_id`). Using
/// two methods at once is `invalid_request`; every failure is `invalid_client`, with a Basic challenge when Basic was
/// tried. A confidential client must authenticate; a public client has no secret to present.
struct ClientAuthenticator: Sendable {
    /// Where clients are registered.
    let store: any ClientStore
    /// Recently read client records (the secret is still checked on every request).
    let cache: ClientCache

    /// The authenticated (or, for a public client, identified) client.
    func authenticate(_ request: Request, form: FormFields) async throws(TokenEndpointError) -> ClientRecord {
        let basic = try Self.basicCredentials(in: request)
        let postedSecret = form["client_secret"]
        if basic != nil && postedSecret != nil {
            throw .invalidRequest("use one client authentication method, not two")
        }
        if let basic {
            if let named = form["client_id"], named != basic.id {
                throw .invalidRequest("client_id differs from the client that authenticated")
            }
            return try await confidentialClient(id: basic.id, secret: basic.secret, basicChallenge: true)
        }
        guard let clientID = form["client_id"] else { throw .invalidClient(basicChallenge: false) }
        if let postedSecret {
            return try await confidentialClient(id: clientID, secret: postedSecret, basicChallenge: false)
        }
        guard let client = try await client(id: clientID), client.kind == .public else {
            throw .invalidClient(basicChallenge: false)
        }
        return client
    }

    private func confidentialClient(
        id: String,
        secret: String,
        basicChallenge: Bool
    ) async throws(TokenEndpointError) -> ClientRecord {
        guard let client = try await client(id: id), client.isProved(bySecret: secret) else {
            throw .invalidClient(basicChallenge: basicChallenge)
        }
        return client
    }

    private func client(id: String) async throws(TokenEndpointError) -> ClientRecord? {
        do {
            return try await cache.client(id: id, in: store)
        } catch {
            throw error.isUnavailable ? .temporarilyUnavailable : .serverError
        }
    }

    /// The client ID and secret of an `Authorization: Basic` header, `nil` without one; a malformed one fails.
    static func basicCredentials(in request: Request) throws(TokenEndpointError) -> (id: String, secret: String)? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else { return nil }
        guard let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8),
            let colon = text.firstIndex(of: ":"),
            let id = formDecoded(text[..<colon]), !id.isEmpty,
            let secret = formDecoded(text[text.index(after: colon)...])
        else { throw .invalidClient(basicChallenge: true) }
        return (id, secret)
    }

    /// One `application/x-www-form-urlencoded` component: `+` is a space, then percent-decoding. A component with
    /// neither (most client IDs and generated secrets) is taken as it is, without Foundation's slower string path.
    private static func formDecoded(_ component: Substring) -> String? {
        guard component.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
            return String(component)
        }
        return component.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
