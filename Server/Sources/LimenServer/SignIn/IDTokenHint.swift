import Foundation
import LimenServerStorage
import LimenWire

/// Reads an `id_token_hint` (OpenID Connect Core §3.1.2.1, RP-Initiated Logout §2): an ID token this server issued,
/// possibly expired.
///
/// Only an ID token passes: a JWT access token (RFC 9068, `typ: at+jwt`, `aud` the issuer) is signed with the same
/// keys and names the same user, but it is handed to APIs, so it must not prove who asks to sign out.
struct IDTokenHint: Sendable, Equatable {
    /// Who the token is about.
    let subject: String
    /// The clients it was issued to (`aud`).
    let audiences: [String]
    /// The `azp` claim, when present.
    let authorizedParty: String?

    /// The client it was issued to, when it names exactly one: `azp`, else a single `aud`.
    var clientID: String? {
        authorizedParty ?? (audiences.count == 1 ? audiences[0] : nil)
    }

    /// The hint, when `token`'s signature verifies against `provider`'s published keys, its issuer is this provider,
    /// it is typed as an ID token (`typ` absent or `JWT`, never `at+jwt`) and it was issued to a registered client
    /// (``clientID``, one of its audiences); `nil` otherwise. Expiry is not checked: an old ID token still says who
    /// signed in.
    static func verify(_ token: String, provider: Provider) async throws(StorageError) -> IDTokenHint? {
        let now = provider.now()
        let keySet = JSONWebKeySet(
            keys: provider.keys.publishedKeys(at: now).map { JSONWebKey(parameters: $0.publicJWK) })
        guard
            (try? await JWSVerifier.verify(compact: token, jwks: keySet, allowedAlgorithms: [.es256, .rs256])) != nil,
            let jwt = try? UnverifiedJWT(token), isIDTokenType(jwt.type),
            jwt.issuer == provider.issuer.current,
            let subject = jwt.subject, !subject.isEmpty
        else { return nil }
        let hint = IDTokenHint(
            subject: subject,
            audiences: jwt.audience,
            authorizedParty: jwt[claim: "azp"]?.stringValue
        )
        guard let clientID = hint.clientID, hint.audiences.contains(clientID),
            try await provider.store.client(id: clientID) != nil
        else { return nil }
        return hint
    }

    /// Whether a JOSE `typ` is an ID token's: absent or `JWT` (OpenID Connect Core §2 sets none; RFC 7519 §5.1).
    private static func isIDTokenType(_ type: String?) -> Bool {
        guard let type else { return true }
        return type.uppercased() == "JWT"
    }
}
