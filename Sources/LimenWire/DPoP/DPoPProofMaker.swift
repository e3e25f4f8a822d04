import Crypto
import Foundation

/// Makes DPoP proofs (RFC 9449 §4): compact JWS signed with ES256 by a client's own P-256 key (any ``DPoPKey``), whose
/// public half rides in the header, binding each request (and the access token it carries) to that key.
///
/// One maker per key; keep the key for as long as the tokens bound to it live. Every proof has a fresh `jti`.
///
/// ```swift
/// let maker = DPoPProofMaker(privateKey: P256.Signing.PrivateKey())
/// // At the token endpoint (adding the server's nonce once it has asked for one):
/// let proof = try maker.proof(method: "POST", url: tokenEndpoint, nonce: serverNonce)
/// request.setValue(proof, forHTTPHeaderField: DPoP.headerName)
/// // At a resource, bound to the access token:
/// let resourceProof = try maker.proof(method: "GET", url: resourceURL, accessToken: accessToken)
/// request.setValue("DPoP \(accessToken)", forHTTPHeaderField: "Authorization")
/// ```
public struct DPoPProofMaker: Sendable {
    /// How many random bytes a `jti` holds (128 bits, so that two proofs never share one).
    public static let jtiByteCount = 16

    /// The public key, as the proofs' `jwk` header carries it: `kty`, `crv`, `x` and `y` only.
    public let publicJWK: JSONWebKey
    /// The public key's RFC 7638 thumbprint: the `jkt` a server binds tokens to, and the `dpop_jkt` of an
    /// authorization request (RFC 9449 §10).
    public let thumbprint: String

    /// The key that signs the proofs.
    public let key: any DPoPKey
    /// The base64url of the protected header, the same for every proof of this key.
    private let encodedHeader: String

    /// A maker signing with a swift-crypto `privateKey`.
    public init(privateKey: P256.Signing.PrivateKey) {
        self.init(key: SoftwareDPoPKey(privateKey: privateKey))
    }

    /// A maker signing with `key`.
    public init(key: any DPoPKey) {
        self.key = key
        let point = key.publicKey.rawRepresentation  // x ‖ y, 32 bytes each
        let jwk: [String: JSONValue] = [
            "kty": .string("EC"), "crv": .string("P-256"),
            "x": .string(Base64URL.encode(point.prefix(32))), "y": .string(Base64URL.encode(point.suffix(32))),
        ]
        publicJWK = JSONWebKey(parameters: jwk)
        // Both coordinates are present strings: a thumbprint always exists for this key.
        thumbprint = publicJWK.thumbprint ?? ""
        let header: [String: JSONValue] = [
            "typ": .string(DPoP.proofType), "alg": .string(JWSAlgorithm.es256.rawValue), "jwk": .object(jwk),
        ]
        encodedHeader = Base64URL.encode(JSONValue.object(header).serialized())
    }

    /// A proof for one HTTP request.
    ///
    /// - Parameters:
    ///   - method: the request's method, as sent (`POST`, `GET`): the `htm` claim.
    ///   - url: the request's URL; its query and fragment are left out of the `htu` claim (RFC 9449 §4.2).
    ///   - accessToken: the access token the request carries, if any: its hash becomes the `ath` claim.
    ///   - nonce: the last `DPoP-Nonce` the server sent, if any: the `nonce` claim.
    ///   - now: the time of the `iat` claim (whole seconds).
    /// - Returns: the compact JWS, the value of the request's `DPoP` header.
    /// - Throws: ``DPoPError/invalidTargetURL`` unless `url` is an absolute `http` or `https` URL with a host;
    ///   ``DPoPError/signingFailed(_:)`` when the key does not sign.
    public func proof(
        method: String,
        url: URL,
        accessToken: String? = nil,
        nonce: String? = nil,
        now: Date = Date()
    ) throws(DPoPError) -> String {
        var claims: [String: JSONValue] = [
            "jti": .string(RandomToken.make(byteCount: Self.jtiByteCount)),
            "htm": .string(method),
            "htu": .string(try Self.targetURI(of: url)),
            "iat": .number(now.timeIntervalSince1970.rounded(.down)),
        ]
        if let accessToken { claims["ath"] = .string(DPoP.accessTokenHash(of: accessToken)) }
        if let nonce { claims["nonce"] = .string(nonce) }
        let signingInput = encodedHeader + "." + Base64URL.encode(JSONValue.object(claims).serialized())
        let signature: P256.Signing.ECDSASignature
        do {
            signature = try key.signature(for: Data(signingInput.utf8))
        } catch {
            throw .signingFailed(String(describing: error))
        }
        // JWS ES256 signatures are r ‖ s, 32 bytes each (RFC 7518 §3.4): swift-crypto's raw representation.
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// `url` without its query and fragment: the `htu` claim.
    static func targetURI(of url: URL) throws(DPoPError) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { throw .invalidTargetURL }
        components.query = nil
        components.fragment = nil
        guard let target = components.string else { throw .invalidTargetURL }
        return target
    }
}
