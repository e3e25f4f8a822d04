import Foundation
import Hummingbird
import LimenServerCore
import LimenServerWire
import LimenWire

/// `POST /device_authorization` (RFC 8628 §3.1–§3.2): a client registered for the device code grant, authenticated
/// as at `/token` (a public client names itself), asks for a device code and a user code for `scope` (checked as at
/// `/authorize`: known scopes, `openid` among them). Refusals are RFC 6749 §5.2 JSON.
enum DeviceAuthorizationRoutes {
    /// Adds `POST /device_authorization`, authenticating clients and storing codes through `service`.
    static func add<Context: RequestContext>(to router: some RouterMethods<Context>, service: TokenService) {
        router.post("/device_authorization") { request, _ in
            let form = try await FormFields.read(tokenRequest: request)
            let client = try await service.authenticator.authenticate(request, form: form)
            try TokenRoutes.requireGrantType(.deviceCode, client: client)
            let scope: String
            switch AuthorizationValidator.requestedScope(form["scope"]) {
            case .success(let accepted): scope = accepted
            case .failure(let refusal): throw TokenEndpointError.unknownScope(refusal.description)
            }
            guard let started = try await service.deviceFlow.start(client: client, scope: scope) else {
                throw TokenEndpointError.serverError
            }
            return Responses.tokenJSON(
                DeviceFlow.responseBody(started, issuer: service.issuer.current))
        }
    }
}
