import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenWire

/// `GET /v1/app` (the app schema, public) and `GET`, `PUT` and `PATCH /v1/me/data` (the signed-in user's profile, with
/// an RFC 6750 bearer access token granting the `profile` scope, from the `Authorization` header only).
///
/// Every profile answer carries the strong `ETag` of the profile's revision; a write with `If-Match` is made only if it
/// names the current revision (else `412`), and a write without it is made on whatever is current (RFC 9110 §13.1.1
/// leaves it optional; the SDK always sends it).
enum ProfileRoutes {
    static func add(to router: Router<some RequestContext>, service: TokenService, profiles: ProfileService) {
        router.get("/v1/app") { _, _ in
            let schema = try await profiles.schema()
            return Responses.json(
                .object([
                    "schema": schema.document,
                    "encryption": .object(["enabled": .bool(schema.isEncryptionEnabled)]),
                ]))
        }
        router.get("/v1/me/data") { request, _ in
            // One read: the token's grant and the user's profile in the same statement.
            try await authorized(request, service: service) { claims throws(StorageError) in
                try await service.store.accessTokenStateAndProfile(
                    grantID: claims.grantID, jti: claims.tokenID
                )
                .map { ($0.state, $0.profile) }
            } respond: { userID, profile throws(ProfileError) in
                profile ?? ProfileRecord.empty(userID: userID)
            }
            .notModified(if: request.headers[.ifNoneMatch])
        }
        router.put("/v1/me/data") { request, _ in
            try await authorized(request, service: service, reading: service.verifier.grantState) {
                userID, _ throws(ProfileError) in
                let replacement = try await ProfileBody.replacement(from: request)
                return try await profiles.write(userID: userID, by: .user, ifMatch: request.headers[.ifMatch]) {
                    current, schema in schema.userReplacement(replacement, of: current)
                }
            }
        }
        router.patch("/v1/me/data") { request, _ in
            try await authorized(request, service: service, reading: service.verifier.grantState) {
                userID, _ throws(ProfileError) in
                let patch = try await ProfileBody.patch(from: request)
                return try await profiles.write(userID: userID, by: .user, ifMatch: request.headers[.ifMatch]) {
                    current, _ throws(ProfileError) in try ProfileBody.patched(current, with: patch)
                }
            }
        }
    }

    /// The answer of `respond` for the user of the request's bearer token and what `read` read with the token's
    /// grant, if the token grants `profile`: the profile `respond` returns with its `ETag`; the RFC 6750 challenge
    /// otherwise.
    private static func authorized<Extra>(
        _ request: Request,
        service: TokenService,
        reading read: (AccessTokenClaims) async throws(StorageError) -> (state: AccessTokenState, extra: Extra)?,
        respond: (_ userID: String, Extra) async throws(ProfileError) -> ProfileRecord
    ) async throws(ProfileError) -> Response {
        let authorization: Result<(claims: AccessTokenClaims, extra: Extra), BearerChallenge>
        do {
            authorization = try await service.verifier.authorize(
                PresentedAccessToken(in: request), scope: "profile", reading: read)
        } catch {
            throw .serverError
        }
        switch authorization {
        case .failure(let challenge): return challenge.response
        case .success(let verified): return response(for: try await respond(verified.claims.subject, verified.extra))
        }
    }

    /// `{"data": …}` of `record` with its `ETag`, never cached.
    static func response(for record: ProfileRecord, data: [String: JSONValue]? = nil) -> Response {
        var response = Responses.json(ProfileBody.representation(of: data ?? record.data), noStore: true)
        response.headers[.eTag] = ProfileETag.value(revision: record.revision)
        return response
    }
}

extension Response {
    /// This profile answer as `304 Not Modified` (its `ETag`, no body) when `ifNoneMatch` names its revision (RFC 9110
    /// §13.1.2); unchanged otherwise.
    fileprivate func notModified(if ifNoneMatch: String?) -> Response {
        guard status == .ok, let ifNoneMatch, let etag = headers[.eTag],
            ProfileETag.matchesWeakly(ifNoneMatch, revision: Int(etag.trimmingCharacters(in: ["\""])) ?? -1)
        else { return self }
        return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "no-store"])
    }
}
