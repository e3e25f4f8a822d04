import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire

/// `GET` and `POST /userinfo` (OpenID Connect Core §5.3) with RFC 6750 bearer tokens: from the `Authorization`
/// header, or the `access_token` form parameter of a POST (§2.2); never from the query string (RFC 9700 §4.3.2). A
/// DPoP-bound token comes in the `Authorization: DPoP` header with a proof (RFC 9449 §7.1).
enum UserInfoRoutes {
    static func add(to router: Router<some RequestContext>, service: TokenService) {
        router.get("/userinfo") { request, _ in
            await respond(token: PresentedAccessToken(in: request), service: service)
        }
        router.post("/userinfo") { request, _ in
            let headerToken = PresentedAccessToken(in: request)
            // Only a form body can carry the token (RFC 6750 §2.2); any other body is ignored.
            guard FormFields.isForm(contentType: request.headers[.contentType]) else {
                return await respond(token: headerToken, service: service)
            }
            let form: FormFields
            switch await FormFields.read(from: request) {
            case .success(let read): form = read
            case .failure(let refusal): return BearerChallenge.invalidRequest(refusal.description).response
            }
            switch (headerToken, form["access_token"]) {
            case (.some, .some):
                return BearerChallenge.invalidRequest("send the access token one way only").response
            case (let token, nil):
                return await respond(token: token, service: service)
            case (nil, .some(let token)):
                return await respond(token: PresentedAccessToken(bearer: token, of: request), service: service)
            }
        }
    }

    private static func respond(token: PresentedAccessToken?, service: TokenService) async -> Response {
        do {
            let claims: AccessTokenClaims
            switch try await service.verifier.authorize(token, scope: "openid") {
            case .success(let verified): claims = verified
            case .failure(let challenge): return challenge.response
            }
            // A user deleted since the token was issued: the token no longer stands for anyone.
            guard
                let userInfo = try await UserInfoClaims.claims(
                    for: claims, store: service.store, schemas: service.profileSchemas)
            else {
                return BearerChallenge.invalidToken.response
            }
            return Responses.json(.object(userInfo), noStore: true)
        } catch let error as StorageError where error.isUnavailable {
            return StorageError.unavailableResponse(html: false)
        } catch {
            return Responses.json(
                .object(["error": .string("server_error")]), status: .internalServerError, noStore: true)
        }
    }
}
