import Foundation
import LimenServerStorage
import LimenWire

/// Reads an `id_token_hint` (OpenID Connect Core §3.1.2.1, RP-Initiated Logout §2): an ID token this server issued,
/// possibly expired.
///
/// Only an ID token passes: a JWT access token (RFC 9068, `typ: at+jwt`, `aud` the issuer) is signed with the same
/// keys and names the same user, but it is handed to APIs, so it must not prove who asks to sign out.
package struct IDTokenHint: Sendable, Equatable {
    /// Who the token is about.
    package let subject: String
    /// The clients it was issued to (`aud`).
    let audiences: [String]
    /// The `azp` claim, when present.
    let authorizedParty: String?

    /// The client it was issued to, when it names exactly one: `azp`, else a single `aud`.
    package var clientID: String? {
        authorizedParty ?? (audiences.count == 1 ? audiences[0] : nil)
    }

    /// The hint, when `token`'s signature verifies against the published `keys`, its issuer is `issuer`,
    /// it is typed as an ID token (`typ` absent or `JWT`, never `at+jwt`) and it was issued to a registered client
    /// (``clientID``, one of its audiences); `nil` otherwise. Expiry is not checked: an old ID token still says who
    /// signed in.
    package static func verify(
        _ token: String, keys: KeyRing, issuer: String, clients: any ClientStore, now: Date
    ) async throws(StorageError) -> IDTokenHint? {
        let keySet = JSONWebKeySet(
            keys: keys.publishedKeys(at: now).map { JSONWebKey(parameters: $0.publicJWK) })
        guard
            (try? await JWSVerifier.verify(compact: token, jwks: keySet, allowedAlgorithms: [.es256, .rs256])) != nil,
            let jwt = try? UnverifiedJWT(token), isIDTokenType(jwt.type),
            jwt.issuer == issuer,
            let subject = jwt.subject, !subject.isEmpty
        else { return nil }
        let hint = IDTokenHint(
            subject: subject,
            audiences: jwt.audience,
            authorizedParty: jwt[claim: "azp"]?.stringValue
        )
        guard let clientID = hint.clientID, hint.audiences.contains(clientID),
            try await clients.client(id: clientID) != nil
        else { return nil }
        return hint
    }

    /// Whether a JOSE `typ` is an ID token's: absent or `JWT` (OpenID Connect Core §2 sets none; RFC 7519 §5.1).
    private static func isIDTokenType(_ type: String?) -> Bool {
        guard let type else { return true }
        return type.uppercased() == "JWT"
    }
}
