import Foundation

/// Why ``COSEKey/init(_:allowedAlgorithms:)`` refused a COSE_Key (RFC 9052 §7, RFC 9053).
public enum COSEKeyError: Error, Sendable, Equatable {
    /// The key is not a CBOR map.
    case notAMap
    /// A member the key type needs is missing; the associated value is its label (1 `kty`, 3 `alg`, -1 `crv` or `n`,
    /// -2 `x` or `e`, -3 `y`).
    case missingMember(label: Int64)
    /// A member has the wrong CBOR type or the wrong length for its key type; the associated value is its label.
    case invalidMember(label: Int64)
    /// The key type (`kty`) is not EC2 (2), OKP (1) or RSA (3).
    case unsupportedKeyType
    /// The algorithm (`alg`) is not ES256, EdDSA or RS256.
    case unsupportedAlgorithm
    /// The curve (`crv`) is not the one the algorithm uses (P-256 for ES256, Ed25519 for EdDSA).
    case unsupportedCurve
    /// The key type does not fit the algorithm (an OKP key claiming ES256, …).
    case keyTypeMismatch
    /// The algorithm is one Limen supports, but not one the caller allows.
    case algorithmNotAllowed(COSEAlgorithm)
    /// An RSA modulus below 2,048 or above 4,096 bits.
    case unsupportedKeySize
    /// swift-crypto refused the key material (a point not on the curve, an RSA exponent it does not take).
    case invalidKeyMaterial

    /// A stable, machine-readable identifier for this failure.
    public var code: String {
        switch self {
        case .notAMap: "cose.not_a_map"
        case .missingMember: "cose.missing_member"
        case .invalidMember: "cose.invalid_member"
        case .unsupportedKeyType: "cose.unsupported_key_type"
        case .unsupportedAlgorithm: "cose.unsupported_algorithm"
        case .unsupportedCurve: "cose.unsupported_curve"
        case .keyTypeMismatch: "cose.key_type_mismatch"
        case .algorithmNotAllowed: "cose.algorithm_not_allowed"
        case .unsupportedKeySize: "cose.unsupported_key_size"
        case .invalidKeyMaterial: "cose.invalid_key_material"
        }
    }
}

extension COSEKeyError: LocalizedError {
    /// A human-readable description; never contains key material.
    public var errorDescription: String? {
        switch self {
        case .notAMap: "The COSE key is not a CBOR map."
        case .missingMember(let label): "The COSE key has no member \(label)."
        case .invalidMember(let label): "The COSE key's member \(label) has the wrong type or length."
        case .unsupportedKeyType: "The COSE key type is not EC2, OKP or RSA."
        case .unsupportedAlgorithm: "The COSE algorithm is not ES256, EdDSA or RS256."
        case .unsupportedCurve: "The COSE key's curve does not fit its algorithm."
        case .keyTypeMismatch: "The COSE key type does not fit its algorithm."
        case .algorithmNotAllowed(let algorithm): "The COSE algorithm \(algorithm.rawValue) is not allowed here."
        case .unsupportedKeySize: "The RSA modulus is not between 2,048 and 4,096 bits."
        case .invalidKeyMaterial: "The COSE key's material is not a valid public key."
        }
    }
}
