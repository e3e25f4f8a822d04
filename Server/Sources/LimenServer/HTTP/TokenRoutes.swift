import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire

/// `POST /token` (RFC 6749 §3.2, §4.1.3, §5, §6; RFC 8628 §3.4; RFC 8693 §2): the authorization code, refresh token,
/// device code and token exchange grants (the last only with trusted issuers configured). A request with a DPoP proof
/// (RFC 9449 §5) gets tokens bound to the proof's key.
enum TokenRoutes {
    static func add<Context: RemoteAddressRequestContext>(to router: some RouterMethods<Context>, service: TokenService)
    {
        router.post("/token") { request, context in
            let form = try await FormFields.read(tokenRequest: request)
            let client = try await service.authenticator.authenticate(request, form: form)
            guard let grantType = GrantType(rawValue: try form.required("grant_type")),
                grantType != .tokenExchange || service.exchangeGrant.verifier.isEnabled
            else { throw TokenEndpointError.unsupportedGrantType }
            try requireGrantType(grantType, client: client)
            let tokenRequest = TokenRequest(
                form: form, client: client, proofKey: try await proofKey(of: request, client: client, service: service),
                logger: context.logger, origin: service.origin(of: request, context: context))
            let body: JSONValue =
                switch grantType {
                case .authorizationCode: try await service.codeGrant.exchange(tokenRequest)
                case .refreshToken: try await service.refreshGrant.refresh(tokenRequest)
                case .deviceCode: try await service.deviceGrant.exchange(tokenRequest)
                case .tokenExchange: try await service.exchangeGrant.exchange(tokenRequest)
                }
            return Responses.tokenJSON(body)
        }
    }

    /// The thumbprint of the key of `request`'s DPoP proof, checked for this endpoint (after `client` authenticated, so
    /// that only its requests fill the replay cache); `nil` without a proof, unless `client` must send one
    /// (``ClientRecord/requiresDPoP``, RFC 9449 §5.2).
    static func proofKey(
        of request: Request,
        client: ClientRecord,
        service: TokenService
    ) async throws(TokenEndpointError) -> String? {
        let proof: VerifiedDPoPProof?
        do {
            proof = try await service.proofs.check(
                DPoPFields.proofs(in: request), method: request.method.rawValue,
                url: service.issuer.current + request.uri.path, now: service.now())
        } catch {
            throw .dpop(error)
        }
        if proof == nil, client.requiresDPoP {
            throw .dpop(.invalidProof("This client must send a DPoP proof with its token requests."))
        }
        return proof?.thumbprint
    }

    /// Refuses a client not registered for `grantType` (`unauthorized_client`).
    static func requireGrantType(_ grantType: GrantType, client: ClientRecord) throws(TokenEndpointError) {
        guard client.grantTypes.contains(grantType) else {
            throw .unauthorizedClient("this client may not use the \(grantType.rawValue) grant")
        }
    }
}
