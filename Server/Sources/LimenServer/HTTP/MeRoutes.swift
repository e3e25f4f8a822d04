import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// The signed-in user's account, with an RFC 6750 bearer access token granting `openid`: `GET /v1/me/identities`
/// lists the identities they sign in with (an address as a subject only with the `email` scope, as `/userinfo`),
/// `DELETE /v1/me/identities/{kind}` unlinks one (never the last that can still sign in, as the configuration stands;
/// the answer names what went), and `DELETE /v1/me`
/// deletes the account (App Store guideline 5.1.1(v)) — every grant, session, token, profile and identity. Both changes
/// are ``AccountChangeGate``'s to allow: a first-party app's token for Limen alone, from a recent sign-in (a
/// confidential client also sends its `client_secret` as a form body).
enum MeRoutes {
    static func add(
        to router: Router<some RemoteAddressRequestContext>,
        service: TokenService,
        gate: AccountChangeGate,
        unlinker: IdentityUnlinker,
        removal: AccountRemoval,
        proxies: TrustedProxies
    ) {
        router.get("/v1/me/identities") { request, _ in
            try await storageErrors { () throws(StorageError) in
                switch try await service.verifier.authorize(PresentedAccessToken(in: request), scope: "openid") {
                case .failure(let challenge): return challenge.response
                case .success(let claims):
                    let identities = try await service.store.identities(userID: claims.subject)
                    let showsAddress = Scope(claims.scope).contains("email")
                    return Responses.json(
                        .object(["identities": .array(identities.map { $0.json(showingAddress: showsAddress) })]),
                        noStore: true)
                }
            }
        }
        router.delete("/v1/me/identities/:kind") { request, context in
            let kind = try context.parameters.path(IdentityKind.self).rawValue
            let origin = RequestOrigin(request, context: context, peer: context.remoteAddress, proxies: proxies)
            return try await changing(request, gate: gate) { permit throws(StorageError) in
                switch try await unlinker.unlink(kind: kind, from: permit.user, origin: origin) {
                case .unlinked(let removed):
                    context.logger.notice("A user unlinked an identity", metadata: ["kind": "\(kind)"])
                    return Responses.json(.object(["removed": .array(removed.map(JSONValue.string))]), noStore: true)
                case .notLinked:
                    return Responses.jsonError(
                        "not_linked", description: "You have no identity of this kind.", status: .notFound)
                case .lastIdentity:
                    return Responses.jsonError(
                        "last_identity", description: "This is how you sign in: link another identity first.",
                        status: .conflict)
                }
            }
        }
        router.delete("/v1/me") { request, context in
            try await changing(request, gate: gate) { permit throws(StorageError) in
                try await removal.deleteAccount(
                    userID: permit.user.id, logger: context.logger,
                    origin: RequestOrigin(request, context: context, peer: context.remoteAddress, proxies: proxies))
                context.logger.notice("A user deleted their account")
                return Response(status: .noContent, headers: [.cacheControl: "no-store"])
            }
        }
    }

    /// The answer of `change` once ``AccountChangeGate`` allowed the request's bearer token to change its account; the
    /// gate's challenge otherwise. A confidential client sends its secret as a form body (`client_secret`), as at
    /// `/token`.
    static func changing(
        _ request: Request,
        gate: AccountChangeGate,
        change: (AccountChangePermit) async throws(StorageError) -> Response
    ) async throws -> Response {
        let secret = try? await FormFields.read(from: request).get()["client_secret"]
        return try await changing(request, clientSecret: secret, gate: gate, change: change)
    }

    /// ``changing(_:gate:change:)`` for a route that read the client's secret from its own body (`clientSecret`,
    /// `nil` when it sent none).
    static func changing(
        _ request: Request,
        clientSecret: String?,
        gate: AccountChangeGate,
        change: (AccountChangePermit) async throws(StorageError) -> Response
    ) async throws -> Response {
        try await storageErrors { () throws(StorageError) in
            switch try await gate.authorize(PresentedAccessToken(in: request), clientSecret: clientSecret) {
            case .failure(let refusal): refusal.challenge.response
            case .success(let permit): try await change(permit)
            }
        }
    }

    /// What `body` answers; a storage failure is a `500`.
    static func storageErrors(_ body: () async throws(StorageError) -> Response) async throws -> Response {
        do {
            return try await body()
        } catch {
            throw HTTPError(.internalServerError)
        }
    }
}

extension IdentityRecord {
    /// `{"kind", "subject", "created_at"}`; without `showingAddress` (a token without the `email` scope) the subject
    /// of the `password` and `email` identities, the address, is left out.
    func json(showingAddress: Bool) -> JSONValue {
        var members: [String: JSONValue] = [
            "kind": .string(kind), "created_at": .number(createdAt.timeIntervalSince1970.rounded(.down)),
        ]
        let addressKinds = [Self.emailKind, Self.passwordKind]
        if showingAddress || !addressKinds.contains(kind) { members["subject"] = .string(subject) }
        return .object(members)
    }
}
