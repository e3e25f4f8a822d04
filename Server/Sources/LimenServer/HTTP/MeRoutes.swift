import Foundation
import HTTPTypes
import Hummingbird
import LimenWire
import Logging

/// The signed-in user's account, with an RFC 6750 bearer access token granting `openid`: `GET /v1/me/identities`
/// lists the identities they sign in with, `DELETE /v1/me/identities/{kind}` unlinks one (never the last), and
/// `DELETE /v1/me` deletes the account (App Store guideline 5.1.1(v)) — every grant, session, token, profile and
/// identity — when the token's sign-in is recent enough (RFC 9470's `insufficient_user_authentication` otherwise).
enum MeRoutes {
    static func add(to router: Router<some RequestContext>, service: TokenService) {
        let provider = service.provider
        router.get("/v1/me/identities") { request, _ in
            try await authorized(request, service: service) { claims throws(StorageError) in
                let identities = try await provider.store.identities(userID: claims.subject)
                return Responses.json(
                    .object(["identities": .array(identities.map(\.json))]), noStore: true)
            }
        }
        router.delete("/v1/me/identities/:kind") { request, context in
            // Percent-decoded: an external issuer's kind (`oidc:https://…`) has a colon and slashes.
            let kind = (context.parameters.get("kind") ?? "").removingPercentEncoding ?? ""
            return try await authorized(request, service: service) { claims throws(StorageError) in
                switch try await provider.store.unlinkIdentity(kind: kind, userID: claims.subject) {
                case .unlinked:
                    context.logger.notice("A user unlinked an identity", metadata: ["kind": "\(kind)"])
                    return Response(status: .noContent, headers: [.cacheControl: "no-store"])
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
            try await authorized(request, service: service) { claims throws(StorageError) in
                guard let user = try await provider.store.user(id: claims.subject) else {
                    return BearerChallenge.invalidToken.response
                }
                let maxAge = provider.configuration.tokenLifetimes.accountDeletionMaxAge
                let authTime = claims.all["auth_time"]?.numberValue.map(Date.init(timeIntervalSince1970:))
                if !user.isAnonymous, authTime.map { provider.now().timeIntervalSince($0) > maxAge } ?? true {
                    return BearerChallenge.insufficientUserAuthentication(maxAge: Int(maxAge)).response
                }
                try await provider.deleteAccount(userID: user.id, logger: context.logger)
                context.logger.notice("A user deleted their account")
                return Response(status: .noContent, headers: [.cacheControl: "no-store"])
            }
        }
    }

    /// The answer of `respond` for the verified claims of the request's bearer token granting `openid`; the RFC 6750
    /// challenge otherwise; a storage failure is a `500`.
    private static func authorized(
        _ request: Request,
        service: TokenService,
        respond: (AccessTokenClaims) async throws(StorageError) -> Response
    ) async throws -> Response {
        do {
            switch try await service.verifier.authorize(BearerChallenge.token(in: request), scope: "openid") {
            case .failure(let challenge): return challenge.response
            case .success(let claims): return try await respond(claims)
            }
        } catch {
            throw HTTPError(.internalServerError)
        }
    }
}

extension IdentityRecord {
    /// `{"kind", "subject", "created_at"}`.
    var json: JSONValue {
        .object([
            "kind": .string(kind), "subject": .string(subject),
            "created_at": .number(createdAt.timeIntervalSince1970.rounded(.down)),
        ])
    }
}
