import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// The signed-in user's two-step sign-in, with an RFC 6750 bearer access token granting `openid`: `GET /v1/me/totp`
/// says whether it is on; `DELETE /v1/me/totp` turns it off and `POST /v1/me/recovery-codes` replaces the recovery
/// codes. Both changes are ``AccountChangeGate``'s to allow and take a fresh second factor: a form body with `code`,
/// a current code of the authenticator app or one of the recovery codes (counted toward the sign-in lockout; a
/// confidential client adds `client_secret`). It is turned on through the `totp-enrol` flow.
enum SecondFactorRoutes {
    static func add(
        to router: Router<some RemoteAddressRequestContext>,
        factors: SecondFactors,
        notifier: AccountNotifier,
        service: TokenService,
        gate: AccountChangeGate,
        proxies: TrustedProxies
    ) {
        router.get("/v1/me/totp") { request, _ in
            try await MeRoutes.storageErrors { () throws(StorageError) in
                switch try await service.verifier.authorize(PresentedAccessToken(in: request), scope: "openid") {
                case .failure(let challenge): return challenge.response
                case .success(let claims):
                    guard let factor = try await factors.store.secondFactor(userID: claims.subject) else {
                        return Responses.json(.object(["enabled": .bool(false)]), noStore: true)
                    }
                    return Responses.json(
                        .object([
                            "enabled": .bool(true),
                            "enabled_at": .number(factor.enabledAt.timeIntervalSince1970.rounded(.down)),
                            "recovery_codes_left": .number(Double(factor.recoveryCodeHashes.count)),
                        ]), noStore: true)
                }
            }
        }
        router.delete("/v1/me/totp") { request, context in
            let origin = RequestOrigin(request, context: context, peer: context.remoteAddress, proxies: proxies)
            return try await confirmed(request, context, factors: factors, gate: gate, proxies: proxies) {
                user throws(StorageError) in
                guard try await factors.disable(userID: user.id, origin: origin) else { return notEnabled }
                try await notifier.notify(.twoStepSignIn(enabled: false), to: user)
                context.logger.notice("A user turned two-step sign-in off")
                return Response(status: .noContent, headers: [.cacheControl: "no-store"])
            }
        }
        router.post("/v1/me/recovery-codes") { request, context in
            try await confirmed(request, context, factors: factors, gate: gate, proxies: proxies) {
                user throws(StorageError) in
                guard let codes = try await factors.newRecoveryCodes(userID: user.id) else { return notEnabled }
                try await notifier.notify(.recoveryCodesReplaced, to: user)
                return Responses.json(
                    .object(["recovery_codes": .array(codes.map { .string($0.formatted) })]), noStore: true)
            }
        }
    }

    /// The answer of `change` once the gate allowed the request's token and its `code` is a fresh second factor of
    /// the token's user.
    private static func confirmed(
        _ request: Request,
        _ context: some RemoteAddressRequestContext,
        factors: SecondFactors,
        gate: AccountChangeGate,
        proxies: TrustedProxies,
        change: @escaping (UserRecord) async throws(StorageError) -> Response
    ) async throws -> Response {
        let form = try? await FormFields.read(from: request).get()
        let clientAddress = proxies.clientAddress(of: request, peer: context.remoteAddress)
        return try await MeRoutes.changing(request, clientSecret: form?["client_secret"], gate: gate) {
            permit throws(StorageError) in
            guard let code = form?["code"], !code.isEmpty else {
                return Responses.jsonError(
                    "invalid_request",
                    description: "code is required: a code of your authenticator app or a recovery code",
                    status: .badRequest)
            }
            switch try await factors.confirm(code, for: permit.user, from: clientAddress) {
            case .success: return try await change(permit.user)
            case .failure(.wrongState): return notEnabled
            case .failure(.invalidCode):
                return Responses.jsonError(
                    "invalid_code", description: SecondFactorRefusal.invalidCode.message, status: .forbidden)
            case .failure(.locked(let seconds)):
                var locked = Responses.jsonError(
                    "too_many_attempts", description: SecondFactorRefusal.locked(retryAfter: seconds).message,
                    status: .tooManyRequests)
                locked.headers[.retryAfter] = String(seconds)
                return locked
            }
        }
    }

    /// The answer when two-step sign-in is off.
    private static var notEnabled: Response {
        Responses.jsonError("not_enabled", description: "Two-step sign-in is off.", status: .notFound)
    }
}
