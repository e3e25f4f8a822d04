import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire

/// `POST /token` (RFC 6749 §3.2, §4.1.3, §5, §6; RFC 8628 §3.4; RFC 8693 §2): the authorization code, refresh token,
/// device code and token exchange grants (the last only with trusted issuers configured).
enum TokenRoutes {
    static func add<Context: RequestContext>(to router: some RouterMethods<Context>, service: TokenService) {
        router.post("/token") { request, context in
            let form = try await FormFields.read(tokenRequest: request)
            let client = try await service.authenticator.authenticate(request, form: form)
            guard let grantType = GrantType(rawValue: try form.required("grant_type")),
                grantType != .tokenExchange || service.exchangeGrant.verifier.isEnabled
            else { throw TokenEndpointError.unsupportedGrantType }
            try requireGrantType(grantType, client: client)
            let body: JSONValue =
                switch grantType {
                case .authorizationCode:
                    try await service.codeGrant.exchange(form, client: client, logger: context.logger)
                case .refreshToken: try await service.refreshGrant.refresh(form, client: client, logger: context.logger)
                case .deviceCode: try await service.deviceGrant.exchange(form, client: client)
                case .tokenExchange:
                    try await service.exchangeGrant.exchange(form, client: client, logger: context.logger)
                }
            return Responses.tokenJSON(body)
        }
    }

    /// Refuses a client not registered for `grantType` (`unauthorized_client`).
    static func requireGrantType(_ grantType: GrantType, client: ClientRecord) throws(TokenEndpointError) {
        guard client.grantTypes.contains(grantType) else {
            throw .unauthorizedClient("this client may not use the \(grantType.rawValue) grant")
        }
    }
}
