import Foundation
import Hummingbird
import LimenServerWire
import LimenWire

/// `POST /token` (RFC 6749 §3.2, §4.1.3, §5, §6; RFC 8628 §3.4): the authorization code, refresh token and device
/// code grants.
enum TokenRoutes {
    static func add<Context: RequestContext>(to router: some RouterMethods<Context>, service: TokenService) {
        router.post("/token") { request, _ in
            let form = try await FormFields.read(tokenRequest: request)
            let client = try await service.authenticator.authenticate(request, form: form)
            let grantType = try form.required("grant_type")
            let body: JSONValue
            switch grantType {
            case "authorization_code":
                try requireGrantType(grantType, client: client)
                body = try await service.codeGrant.exchange(form, client: client)
            case "refresh_token":
                try requireGrantType(grantType, client: client)
                body = try await service.refreshGrant.refresh(form, client: client)
            case DeviceFlow.grantType:
                try requireGrantType(grantType, client: client)
                body = try await service.deviceGrant.exchange(form, client: client)
            default:
                throw TokenEndpointError.unsupportedGrantType
            }
            return Responses.tokenJSON(body)
        }
    }

    /// Refuses a client not registered for `grantType` (`unauthorized_client`).
    static func requireGrantType(_ grantType: String, client: ClientRecord) throws(TokenEndpointError) {
        guard client.grantTypes.contains(grantType) else {
            throw .unauthorizedClient("this client may not use the \(grantType) grant")
        }
    }
}
