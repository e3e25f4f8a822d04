import Foundation
import LimenWire

/// Checks DPoP proofs (RFC 9449 §4.3) at a token endpoint or a resource: pure logic, no HTTP and no storage.
///
/// The signature is checked by LimenWire's ``JWSVerifier`` (jwt-kit) with the key in the proof's own header; what this
/// adds is RFC 9449's checks around it. Replays are a separate step: give the verified proof to a ``DPoPReplayCache``
/// (after the request's other checks, such as client authentication, so that only such requests fill it).
///
/// ```swift
/// let verifier = DPoPVerifier()
/// let proof = try await verifier.verify(
///     headerValue, method: "GET", url: "https://api.example.com/me", accessToken: token, now: Date())
/// guard proof.thumbprint == tokenClaims.confirmation.jkt else { … }
/// guard replays.admit(proof, now: Date()) == .fresh else { … }
/// ```
public struct DPoPVerifier: Sendable {
    /// The algorithms a proof may be signed with: ES256, EdDSA (Ed25519), and RS256 with a 2,048- to 4,096-bit key.
    public static let supportedAlgorithms: Set<JWSAlgorithm> = [.es256, .edDSA, .rs256]
    /// The longest `jti` accepted by default, in UTF-8 bytes (a 128-bit random value is 22 base64url characters, a
    /// UUID 36).
    public static let defaultMaximumJTILength = 128

    /// How far from now a proof's `iat` may lie (RFC 9449 §11.1).
    public struct IssuedAtWindow: Sendable, Equatable {
        /// How far ahead of now `iat` may be by default, in seconds.
        public static let defaultFuture: TimeInterval = 10
        /// How long ago `iat` may be by default, in seconds.
        public static let defaultPast: TimeInterval = 60

        /// How far ahead of now `iat` may be, in seconds (clients' clocks run fast).
        public var future: TimeInterval
        /// How long ago `iat` may be, in seconds.
        public var past: TimeInterval

        /// A window from `past` seconds ago to `future` seconds ahead, by default 60 s and 10 s: RFC 9449 §11.1 leaves
        /// the window to the server, clients mint a proof just before each request, and Limen's SDK corrects its
        /// clock by the server's (`ServerClock`), so a short window costs honest clients nothing and keeps the replay
        /// cache small (``DPoPReplayCache``).
        public init(future: TimeInterval = defaultFuture, past: TimeInterval = defaultPast) {
            self.future = future
            self.past = past
        }

        /// How long one proof can be accepted, from the first moment to the last: `future + past`. A replay cache
        /// keeps a `jti` this long after first seeing it.
        public var span: TimeInterval { future + past }

        /// Whether `issuedAt` lies in the window around `now` (its edges included).
        func contains(_ issuedAt: Date, now: Date) -> Bool {
            let offset = issuedAt.timeIntervalSince(now)
            return -past <= offset && offset <= future
        }
    }

    /// The algorithms accepted: those of the initialiser's list that are ``supportedAlgorithms``.
    public let allowedAlgorithms: Set<JWSAlgorithm>
    /// The window `iat` must lie in.
    public let window: IssuedAtWindow
    /// The longest `jti` accepted, in UTF-8 bytes.
    public let maximumJTILength: Int

    /// A verifier accepting `allowedAlgorithms` (only ``supportedAlgorithms`` count), `iat` within `window`, and a
    /// `jti` of at most `maximumJTILength` bytes.
    public init(
        allowedAlgorithms: Set<JWSAlgorithm> = supportedAlgorithms,
        window: IssuedAtWindow = IssuedAtWindow(),
        maximumJTILength: Int = defaultMaximumJTILength
    ) {
        self.allowedAlgorithms = allowedAlgorithms.intersection(Self.supportedAlgorithms)
        self.window = window
        self.maximumJTILength = maximumJTILength
    }

    /// Verifies `proof`, the value of a request's `DPoP` header, for that request.
    ///
    /// The checks run in RFC 9449 §4.3's order: the JWS and its claims are well formed, `typ`, `alg`, the `jwk` (public,
    /// fit for `alg`), the signature, `htm`, `htu`, `nonce`, `iat`, `ath`; the first that fails is thrown.
    ///
    /// - Parameters:
    ///   - proof: the compact JWS.
    ///   - method: the request's method, as received.
    ///   - url: the URI the request was sent to, as the server knows itself (scheme, host, port, path); its query and
    ///     fragment, if any, are ignored.
    ///   - accessToken: the access token the request carries (at a resource): the proof's `ath` must be its hash.
    ///     `nil` at the token endpoint, where `ath` is not checked.
    ///   - nonce: the nonce the server expects in this proof, if it asks for one.
    ///   - now: the time the window is centred on.
    /// - Returns: the key's thumbprint, the `jti` and the `iat` of the proof.
    /// - Throws: the ``DPoPProofError`` of the first check that fails.
    public func verify(
        _ proof: String,
        method: String,
        url: String,
        accessToken: String? = nil,
        nonce: String? = nil,
        now: Date
    ) async throws(DPoPProofError) -> VerifiedDPoPProof {
        let jwt: UnverifiedJWT
        do {
            jwt = try UnverifiedJWT(proof)
        } catch {
            throw .malformed
        }
        let claims = try RequiredClaims(jwt.claims, maximumJTILength: maximumJTILength)
        guard jwt.type == DPoP.proofType else { throw .wrongType }
        guard let name = jwt.algorithm, let algorithm = JWSAlgorithm(rawValue: name),
            allowedAlgorithms.contains(algorithm)
        else { throw .algorithmNotAllowed(jwt.algorithm ?? "(absent)") }
        let key = try ProofKey(header: jwt.header, algorithm: algorithm)
        try await key.checkSignature(of: proof, algorithm: algorithm)

        guard claims.method == method else { throw .methodMismatch }
        guard let target = DPoPTargetURI(claims.targetURI), target == DPoPTargetURI(url) else {
            throw .targetURIMismatch
        }
        if let nonce {
            guard let sent = jwt.claims["nonce"] else { throw .nonceMissing }
            guard case .string(let sent) = sent, ConstantTime.equals(sent, nonce) else { throw .nonceMismatch }
        }
        guard window.contains(claims.issuedAt, now: now) else { throw .issuedAtOutsideWindow }
        if let accessToken {
            guard case .string(let hash)? = jwt.claims["ath"] else { throw .athMissing }
            guard ConstantTime.equals(hash, DPoP.accessTokenHash(of: accessToken)) else { throw .athMismatch }
        }
        return VerifiedDPoPProof(
            thumbprint: key.thumbprint, jti: claims.jti, issuedAt: claims.issuedAt, algorithm: algorithm,
            publicKey: key.publicKey)
    }
}

/// A DPoP proof that passed ``DPoPVerifier``.
public struct VerifiedDPoPProof: Sendable, Hashable {
    /// The RFC 7638 thumbprint of the proof's key: the `jkt` that binds tokens to it (RFC 9449 §6.1).
    public let thumbprint: String
    /// The proof's `jti`, for a ``DPoPReplayCache``.
    public let jti: String
    /// The proof's `iat`.
    public let issuedAt: Date
    /// The algorithm the proof was signed with.
    public let algorithm: JWSAlgorithm
    /// The proof's key: its public members only.
    public let publicKey: JSONWebKey

    /// A verified proof's parts (for tests and for a caller that verified a proof another way).
    public init(thumbprint: String, jti: String, issuedAt: Date, algorithm: JWSAlgorithm, publicKey: JSONWebKey) {
        (self.thumbprint, self.jti, self.issuedAt) = (thumbprint, jti, issuedAt)
        (self.algorithm, self.publicKey) = (algorithm, publicKey)
    }
}

/// The claims every proof has (RFC 9449 §4.2), of the right JSON types (RFC 9449 §4.3 step 4).
private struct RequiredClaims {
    let jti: String
    let method: String
    let targetURI: String
    let issuedAt: Date

    init(_ claims: [String: JSONValue], maximumJTILength: Int) throws(DPoPProofError) {
        guard case .string(let method)? = claims["htm"] else { throw .invalidClaim("htm") }
        guard case .string(let targetURI)? = claims["htu"] else { throw .invalidClaim("htu") }
        guard case .number(let issuedAt)? = claims["iat"] else { throw .invalidClaim("iat") }
        guard case .string(let jti)? = claims["jti"], !jti.isEmpty else { throw .jtiMissing }
        guard jti.utf8.count <= maximumJTILength else { throw .jtiTooLong }
        (self.jti, self.method, self.targetURI) = (jti, method, targetURI)
        self.issuedAt = Date(timeIntervalSince1970: issuedAt)
    }
}

/// The public key in a proof's `jwk` header, checked fit for the proof's `alg`.
private struct ProofKey {
    /// The key's public members, those RFC 7638 and the key types use.
    let publicKey: JSONWebKey
    /// The key's RFC 7638 thumbprint.
    let thumbprint: String

    /// Members that only a private or symmetric key has (RFC 7518 §6.2.2, §6.3.2, §6.4; RFC 8037 §2).
    private static let privateMembers: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]
    /// Members of a public key.
    private static let publicMembers: Set<String> = ["kty", "crv", "x", "y", "n", "e"]

    init(header: [String: JSONValue], algorithm: JWSAlgorithm) throws(DPoPProofError) {
        guard case .object(let members)? = header["jwk"] else { throw .keyMissing }
        guard Self.privateMembers.isDisjoint(with: members.keys) else { throw .keyHasPrivateMembers }
        var publicMembers = members.filter { Self.publicMembers.contains($0.key) }
        // The signature check picks the key by the header's kid when there is one: give the key that kid.
        if case .string(let kid)? = header["kid"] { publicMembers["kid"] = .string(kid) }
        let key = JSONWebKey(parameters: publicMembers)
        guard Self.fits(key, algorithm), let thumbprint = key.thumbprint else { throw .keyUnusable }
        (self.publicKey, self.thumbprint) = (key, thumbprint)
    }

    /// Whether `key` is of the type (and curve) `algorithm` signs with, and an RSA modulus has an accepted size.
    private static func fits(_ key: JSONWebKey, _ algorithm: JWSAlgorithm) -> Bool {
        switch algorithm {
        case .es256: return key.keyType == "EC" && key.curve == "P-256"
        case .edDSA: return key.keyType == "OKP" && key.curve == "Ed25519"
        case .rs256:
            guard key.keyType == "RSA", case .string(let encoded)? = key.parameters["n"],
                let modulus = Base64URL.decode(encoded)
            else { return false }
            return RSAModulus.isAccepted(modulus)
        default: return false
        }
    }

    /// Checks the proof's signature with this key, through LimenWire's ``JWSVerifier``.
    func checkSignature(of proof: String, algorithm: JWSAlgorithm) async throws(DPoPProofError) {
        do {
            _ = try await JWSVerifier.verify(
                compact: proof, jwks: JSONWebKeySet(keys: [publicKey]), allowedAlgorithms: [algorithm])
        } catch .invalidSignature {
            throw .signatureInvalid
        } catch {
            throw .keyUnusable
        }
    }
}
