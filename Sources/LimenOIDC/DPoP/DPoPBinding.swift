import Foundation
import LimenWire

/// What a client needs to send DPoP requests (RFC 9449): its key's proof maker, the nonces servers handed out, and the
/// clock of the proofs' `iat`.
///
/// Works with any RFC 9449 server: every request gets a fresh proof (a new `jti`; `htm` and `htu` of the request; `ath`
/// when it carries an access token; the server's last nonce), and so does every attempt of a transport that repeats it
/// (``HTTPRequest/renewal``); a refusal asking for a nonce (`400` with
/// `use_dpop_nonce` from a token endpoint, `401` with a `DPoP error="use_dpop_nonce"` challenge from a resource) that
/// brought a new one is answered with exactly one retry.
///
/// ```swift
/// let dpop = DPoPBinding(key: SoftwareDPoPKey())
/// let tokens = TokenClient(metadata: metadata, authentication: .none(clientID: "app"), transport: transport, dpop: dpop)
/// let response = try await dpop.send(HTTPRequest(url: api), accessToken: accessToken, through: transport)
/// ```
public struct DPoPBinding: Sendable {
    /// Makes the proofs.
    public let maker: DPoPProofMaker
    /// The servers' last nonces.
    public let nonces: DPoPNonceCache
    /// The time of each proof's `iat`: the device's clock corrected by the server's, where the caller knows it.
    public let now: @Sendable () -> Date

    /// A binding to `key`, remembering nonces in `nonces`, dating proofs by `now`.
    public init(
        key: any DPoPKey,
        nonces: DPoPNonceCache = DPoPNonceCache(),
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.maker = DPoPProofMaker(key: key)
        self.nonces = nonces
        self.now = now
    }

    /// Sends `request` with a proof (and, with `accessToken`, as `Authorization: DPoP <token>` with the proof's `ath`);
    /// answers one refusal asking for a new nonce with one retry carrying it.
    /// - Returns: The server's answer, whatever its status, except a second nonce refusal.
    /// - Throws: ``OIDCError/dpop(_:)`` when no proof could be made; ``OIDCError/network(_:)`` when the transport
    ///   fails; ``OIDCError/oauth(_:)`` with `use_dpop_nonce` when the server refuses the nonce it asked for too, or asks
    ///   for one without sending it.
    public func send(_ request: HTTPRequest, accessToken: String? = nil, through transport: any HTTPTransport)
        async throws(OIDCError) -> HTTPResponse
    {
        let first = try await attempt(request, accessToken: accessToken, through: transport)
        guard Self.asksForNonce(first.response) else { return first.response }
        let fresh = await nonces.nonce(for: request.url)
        guard let fresh, fresh != first.nonce else { throw Self.nonceRefused(first.response) }
        let second = try await attempt(request, accessToken: accessToken, through: transport)
        guard Self.asksForNonce(second.response) else { return second.response }
        throw Self.nonceRefused(second.response)
    }

    /// `request` with a fresh proof carrying its server's last nonce (and, with `accessToken`, as
    /// `Authorization: DPoP <token>` with the proof's `ath`), for a caller that sends it itself: a nonce refusal of
    /// its answer is the caller's to handle.
    /// - Throws: ``OIDCError/dpop(_:)`` when no proof could be made.
    public func proving(_ request: HTTPRequest, accessToken: String? = nil) async throws(OIDCError) -> HTTPRequest {
        try proven(request, accessToken: accessToken, nonce: await nonces.nonce(for: request.url))
    }

    /// `request` sent once with a fresh proof carrying the last nonce, and that nonce.
    private func attempt(_ request: HTTPRequest, accessToken: String?, through transport: any HTTPTransport)
        async throws(OIDCError) -> (response: HTTPResponse, nonce: String?)
    {
        let nonce = await nonces.nonce(for: request.url)
        let proven = try proven(request, accessToken: accessToken, nonce: nonce)
        let response: HTTPResponse
        do {
            response = try await transport.send(proven)
        } catch {
            throw .network(error)
        }
        await nonces.remember(response, from: request.url)
        return (response, nonce)
    }

    /// `request` with a fresh proof carrying `nonce`, and `accessToken` under the `DPoP` scheme; a transport that
    /// repeats it gets another fresh proof for each attempt (``HTTPRequest/renewal``), carrying the nonce of the answer
    /// to the last one if it brought one.
    private func proven(_ request: HTTPRequest, accessToken: String?, nonce: String?) throws(OIDCError) -> HTTPRequest {
        var bound = request
        do {
            bound.headers[DPoP.headerName] = try maker.proof(
                method: request.method.uppercased(), url: request.url, accessToken: accessToken, nonce: nonce,
                now: now())
        } catch {
            throw .dpop(error)
        }
        if let accessToken { bound.headers["Authorization"] = "\(DPoP.headerName) \(accessToken)" }
        bound.renewal = HTTPRequestRenewal { _, answer in
            if let answer { await nonces.remember(answer, from: request.url) }
            // A key that no longer signs leaves nothing to send again: the last attempt's outcome stands.
            let latest = await nonces.nonce(for: request.url)
            return try? proven(request, accessToken: accessToken, nonce: latest)
        }
        return bound
    }

    /// Whether `response` asks for a proof with the server's nonce: `400` with `use_dpop_nonce` (a token endpoint,
    /// RFC 9449 §8) or `401` with a DPoP challenge whose error is `use_dpop_nonce` (a resource, §9).
    static func asksForNonce(_ response: HTTPResponse) -> Bool {
        switch response.status {
        case 400:
            OAuthError.fromErrorBody(response.body, httpStatus: 400)?.error == .useDPoPNonce
        case 401:
            BearerChallenge(response.header("WWW-Authenticate")).map {
                $0.scheme == "dpop" && $0.error == OAuthError.ErrorCode.useDPoPNonce.rawValue
            } ?? false
        default:
            false
        }
    }

    /// The typed error for a nonce refusal that one retry did not answer.
    private static func nonceRefused(_ response: HTTPResponse) -> OIDCError {
        .oauth(
            OAuthError.fromErrorBody(response.body, httpStatus: response.status)
                ?? OAuthError(error: .useDPoPNonce, httpStatus: response.status))
    }
}
