import Foundation

/// Why a field could not be encrypted or decrypted, or an encryption key could not be exported or imported.
///
/// Messages name header parameters and key IDs (thumbprints, not secrets) but never plaintext, keys or passphrases.
public enum EncryptionError: Error, Sendable, Equatable {
    /// There is no encryption key for the signed-in user on this device (import one, or encrypt something first).
    case noKey
    /// The JWE was made with another key: its `kid` (the associated value, `nil` when absent) is not this key's ID.
    case wrongKeyID(String?)
    /// The authentication tag does not match: the ciphertext, IV, tag or protected header was altered.
    case tampered
    /// The text is not a JWE this SDK can read (see ``JWEMalformation`` for what is wrong).
    case malformed(JWEMalformation)
    /// The `alg` header parameter (the associated value, `nil` when absent) is not the one expected here: `dir` for a
    /// field, `PBES2-HS512+A256KW` for a key export. `none` is refused like any other.
    case unsupportedAlgorithm(String?)
    /// The `enc` header parameter (the associated value, `nil` when absent) is not `A256GCM`.
    case unsupportedEncryption(String?)
    /// The passphrase does not open the key export (RFC 3394's integrity check of the unwrapped key failed).
    case wrongPassphrase
    /// A key export's key derivation parameter (`p2c`, the iteration count, or `p2s`, the salt, by its byte count) is
    /// outside the accepted bounds (``FieldEncryptionKey/acceptedIterations``,
    /// ``FieldEncryptionKey/acceptedSaltByteCounts``): too weak to protect the key, or so costly that importing it
    /// would hang the device.
    case keyDerivationOutOfBounds(parameter: String, value: Int)

    /// A stable, machine-readable identifier for this failure.
    public var code: String {
        switch self {
        case .noKey: "encryption.no_key"
        case .wrongKeyID: "encryption.wrong_key_id"
        case .tampered: "encryption.tampered"
        case .malformed: "encryption.malformed"
        case .unsupportedAlgorithm: "encryption.unsupported_alg"
        case .unsupportedEncryption: "encryption.unsupported_enc"
        case .wrongPassphrase: "encryption.wrong_passphrase"
        case .keyDerivationOutOfBounds: "encryption.key_derivation_out_of_bounds"
        }
    }
}

/// What is wrong with a text that should be a JWE compact serialization (RFC 7516 §7.1).
public enum JWEMalformation: Sendable, Equatable {
    /// The text does not have exactly five dot-separated segments; the associated value is how many it has.
    case segmentCount(Int)
    /// A segment is not unpadded base64url.
    case invalidBase64URL(JWESegment)
    /// A segment has a length the algorithm does not allow (an IV other than 96 bits, a tag other than 128 bits, an
    /// encrypted key where `dir` has none, a wrapped key of the wrong size).
    case invalidLength(JWESegment)
    /// The protected header is not a JSON object.
    case invalidHeader
    /// A header parameter the algorithm needs (`kid`, `p2s`, `p2c`) is missing.
    case missingHeaderParameter(String)
    /// A header parameter has a value of the wrong type, or one this SDK does not implement (`crit`, `zip`).
    case invalidHeaderParameter(String)
    /// The decrypted payload is not what it should be: UTF-8 text for a field, a 256-bit `oct` JWK for a key export.
    case invalidPayload
}

/// One of the five segments of a compact JWE.
public enum JWESegment: String, Sendable, Equatable {
    /// The protected header.
    case header
    /// The encrypted key (empty for `dir`).
    case encryptedKey = "encrypted_key"
    /// The initialization vector.
    case initializationVector = "iv"
    /// The ciphertext.
    case ciphertext
    /// The authentication tag.
    case tag
}

extension EncryptionError: LocalizedError {
    /// A human-readable description; never contains plaintext, keys or passphrases.
    public var errorDescription: String? {
        switch self {
        case .noKey:
            "There is no encryption key for this user on this device."
        case .wrongKeyID(let keyID):
            "The value was encrypted with another key (kid \(keyID.map { "\"\($0)\"" } ?? "missing"))."
        case .tampered:
            "The encrypted value was altered: its authentication tag does not match."
        case .malformed(let malformation):
            "The text is not a readable JWE: \(malformation.description)."
        case .unsupportedAlgorithm(let algorithm):
            "The JWE algorithm \(algorithm.map { "\"\($0)\"" } ?? "(missing)") is not supported here."
        case .unsupportedEncryption(let encryption):
            "The JWE content encryption \(encryption.map { "\"\($0)\"" } ?? "(missing)") is not supported; "
                + "only A256GCM is."
        case .wrongPassphrase:
            "The passphrase does not open this key export."
        case .keyDerivationOutOfBounds(let parameter, let value):
            "The key export's \(parameter) (\(value)) is outside the accepted bounds."
        }
    }
}

extension JWEMalformation: CustomStringConvertible {
    /// What is wrong, in a few words.
    public var description: String {
        switch self {
        case .segmentCount(let count): "a compact JWE has 5 segments, this one has \(count)"
        case .invalidBase64URL(let segment): "the \(segment.rawValue) is not base64url"
        case .invalidLength(let segment): "the \(segment.rawValue) has the wrong length"
        case .invalidHeader: "the protected header is not a JSON object"
        case .missingHeaderParameter(let name): "the header has no \"\(name)\""
        case .invalidHeaderParameter(let name): "the header's \"\(name)\" is invalid or not supported"
        case .invalidPayload: "the decrypted payload is not of the expected kind"
        }
    }
}
