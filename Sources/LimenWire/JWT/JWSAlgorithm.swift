import Foundation

/// An asymmetric JWS signature algorithm (RFC 7518 §3, RFC 8037 §3.1) that Limen can verify.
///
/// `none` and the HMAC algorithms are deliberately absent: an ID token verified against a provider's public keys
/// must never be accepted with them, so they cannot even be put in an allow-list.
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable, Codable {
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = "RS256"
    /// RSASSA-PKCS1-v1_5 with SHA-384.
    case rs384 = "RS384"
    /// RSASSA-PKCS1-v1_5 with SHA-512.
    case rs512 = "RS512"
    /// RSASSA-PSS with SHA-256.
    case ps256 = "PS256"
    /// RSASSA-PSS with SHA-384.
    case ps384 = "PS384"
    /// RSASSA-PSS with SHA-512.
    case ps512 = "PS512"
    /// ECDSA on P-256 with SHA-256.
    case es256 = "ES256"
    /// ECDSA on P-384 with SHA-384.
    case es384 = "ES384"
    /// ECDSA on P-521 with SHA-512.
    case es512 = "ES512"
    /// EdDSA; Limen supports the Ed25519 curve.
    case edDSA = "EdDSA"

    /// The JWK `kty` a key for this algorithm has.
    var keyType: String {
        switch self {
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: "RSA"
        case .es256, .es384, .es512: "EC"
        case .edDSA: "OKP"
        }
    }

    /// The JWK `crv` a key for this algorithm must have, for curve-based algorithms.
    var curve: String? {
        switch self {
        case .es256: "P-256"
        case .es384: "P-384"
        case .es512: "P-521"
        case .edDSA: "Ed25519"
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: nil
        }
    }
}
