import Crypto
import CryptoExtras
import Foundation

/// The PBES2 key management algorithms (RFC 7518 §4.8): PBKDF2 with HMAC-SHA-2 derives a key-encryption key from a
/// passphrase, and AES Key Wrap (RFC 3394) wraps the content encryption key with it.
///
/// All three are here so the RFCs' known-answer vectors exercise the same code; Limen's key export uses
/// ``hs512A256KW`` only.
package enum PBES2Algorithm: String, Sendable, CaseIterable {
    /// `PBES2-HS256+A128KW`.
    case hs256A128KW = "PBES2-HS256+A128KW"
    /// `PBES2-HS384+A192KW`.
    case hs384A192KW = "PBES2-HS384+A192KW"
    /// `PBES2-HS512+A256KW`.
    case hs512A256KW = "PBES2-HS512+A256KW"

    /// The PRF's hash.
    var hashFunction: KDF.Insecure.PBKDF2.HashFunction {
        switch self {
        case .hs256A128KW: .sha256
        case .hs384A192KW: .sha384
        case .hs512A256KW: .sha512
        }
    }

    /// The key-encryption key's size in bytes (the AES Key Wrap variant's key size).
    var keyEncryptionKeyByteCount: Int {
        switch self {
        case .hs256A128KW: 16
        case .hs384A192KW: 24
        case .hs512A256KW: 32
        }
    }

    /// The key-encryption key for `passphrase`: PBKDF2 over the salt `UTF8(alg) || 0x00 || saltInput`
    /// (RFC 7518 §4.8.1.1) with `iterations` rounds.
    ///
    /// The caller bounds `iterations` and the salt (see ``FieldEncryptionKey/acceptedIterations``); this function
    /// takes any count so that the RFC vectors' 4,096 and 8,192 rounds can be checked.
    /// - Throws: ``EncryptionError/keyDerivationOutOfBounds(parameter:value:)`` when PBKDF2 itself refuses the count
    ///   (zero, or more than it can represent).
    package func keyEncryptionKey(passphrase: String, saltInput: [UInt8], iterations: Int) throws(EncryptionError)
        -> SymmetricKey
    {
        let salt = Array(rawValue.utf8) + [0] + saltInput
        do {
            return try KDF.Insecure.PBKDF2.deriveKey(
                from: Array(passphrase.utf8), salt: salt, using: hashFunction,
                outputByteCount: keyEncryptionKeyByteCount, unsafeUncheckedRounds: iterations)
        } catch {
            throw .keyDerivationOutOfBounds(parameter: "p2c", value: iterations)
        }
    }

    /// Wraps `contentKey` (RFC 3394) with the key-encryption key derived from `passphrase`.
    package func wrap(
        _ contentKey: SymmetricKey,
        passphrase: String,
        saltInput: [UInt8],
        iterations: Int
    ) throws(EncryptionError) -> [UInt8] {
        let keyEncryptionKey = try keyEncryptionKey(
            passphrase: passphrase, saltInput: saltInput, iterations: iterations)
        do {
            return Array(try AES.KeyWrap.wrap(contentKey, using: keyEncryptionKey))
        } catch {
            // AES Key Wrap refuses only keys that are not a multiple of 64 bits; the content keys are 128–256 bits.
            throw .malformed(.invalidLength(.encryptedKey))
        }
    }

    /// Unwraps `encryptedKey` (RFC 3394) with the key-encryption key derived from `passphrase`.
    /// - Throws: ``EncryptionError/wrongPassphrase`` when the unwrapped key fails RFC 3394's integrity check.
    package func unwrap(
        _ encryptedKey: [UInt8],
        passphrase: String,
        saltInput: [UInt8],
        iterations: Int
    ) throws(EncryptionError) -> SymmetricKey {
        let keyEncryptionKey = try keyEncryptionKey(
            passphrase: passphrase, saltInput: saltInput, iterations: iterations)
        do {
            return try AES.KeyWrap.unwrap(encryptedKey, using: keyEncryptionKey)
        } catch {
            throw .wrongPassphrase
        }
    }
}
