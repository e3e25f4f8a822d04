/// The algorithms Limen signs its tokens with (RFC 7518 §3.3 and §3.4), by their `alg`: every key set holds one key of
/// each, and a client's ID tokens are signed with the one it registered (`id_token_signed_response_alg`).
public enum SigningAlgorithm: String, CaseIterable, Sendable {
    /// ECDSA with P-256 and SHA-256: access tokens, and ID tokens unless a client asks otherwise.
    case es256 = "ES256"
    /// RSASSA-PKCS1-v1_5 with SHA-256, for clients that cannot verify ECDSA.
    case rs256 = "RS256"
}
