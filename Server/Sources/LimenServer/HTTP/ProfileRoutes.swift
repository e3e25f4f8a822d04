import Foundation
import HTTPTypes
import Hummingbird
import LimenWire

/// `GET /v1/app` (the app schema, public) and `GET`, `PUT` and `PATCH /v1/me/data` (the signed-in user's profile, with
/// an RFC 6750 bearer access token granting the `profile` scope, from the `Authorization` header only).
///
/// Every profile answer carries the strong `ETag` of the profile's revision; a write with `If-Match` is made only if it
/// names the current revision (else `412`), and a write without it is made on whatever is current (RFC 9110 §13.1.1
/// leaves it optional; the SDK always sends it).
enum ProfileRoutes {
    static func add(to router: Router<some RequestContext>, service: TokenService) {
        let profiles = ProfileService(provider: service.provider)
        router.get("/v1/app") { _, _ in
            let schema = try await profiles.schema()
            return Responses.json(
                .object([
                    "schema": schema.document,
                    "encryption": .object(["enabled": .bool(schema.isEncryptionEnabled)]),
                ]))
        }
        router.get("/v1/me/data") { request, _ in
            try await authorized(request, service: service) { userID throws(ProfileError) in
                try await profiles.profile(userID: userID)
            }
        }
        router.put("/v1/me/data") { request, _ in
            try await authorized(request, service: service) { userID throws(ProfileError) in
                let replacement = try await ProfileBody.replacement(from: request)
                return try await profiles.write(userID: userID, by: .user, ifMatch: request.headers[.ifMatch]) {
                    current, schema in
                    // A field the user may not edit keeps its value: the replacement need not repeat it.
                    replacement.merging(
                        current.filter { schema.fields[$0.key]?.isUserEditable == false }
                    ) { sent, _ in sent }
                }
            }
        }
        router.patch("/v1/me/data") { request, _ in
            try await authorized(request, service: service) { userID throws(ProfileError) in
                let patch = try await ProfileBody.patch(from: request)
                return try await profiles.write(userID: userID, by: .user, ifMatch: request.headers[.ifMatch]) {
                    current, _ throws(ProfileError) in try ProfileBody.patched(current, with: patch)
                }
            }
        }
    }

    /// The answer of `body` for the user of the request's bearer token, if it grants `profile`: the profile
    /// `body` returns with its `ETag`; the RFC 6750 challenge otherwise.
    private static func authorized(
        _ request: Request,
        service: TokenService,
        _ body: (_ userID: String) async throws(ProfileError) -> ProfileRecord
    ) async throws(ProfileError) -> Response {
        let authorization: Result<AccessTokenClaims, BearerChallenge>
        do {
            authorization = try await service.verifier.authorize(BearerChallenge.token(in: request), scope: "profile")
        } catch {
            throw .serverError
        }
        switch authorization {
        case .failure(let challenge): return challenge.response
        case .success(let claims): return response(for: try await body(claims.subject))
        }
    }

    /// `{"data": …}` of `record` with its `ETag`, never cached.
    static func response(for record: ProfileRecord, data: [String: JSONValue]? = nil) -> Response {
        var response = Responses.json(ProfileBody.representation(of: data ?? record.data), noStore: true)
        response.headers[.eTag] = ProfileETag.value(revision: record.revision)
        return response
    }
}
