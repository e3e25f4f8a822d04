import Crypto
import Foundation

/// Carrying a key to another device under a passphrase: a compact JWE with `PBES2-HS512+A256KW` (RFC 7518 §4.8) and
/// `A256GCM`, whose payload is the key as an `oct` JWK (`cty: jwk+json`).
extension FieldEncryptionKey {
    /// The PBKDF2 iteration count (`p2c`) of an export: 600,000, OWASP's figure for PBKDF2-HMAC-SHA-256 (HMAC-SHA-512
    /// costs more per round, so this errs on the strong side).
    public static let exportIterations = 600_000

    /// The iteration counts an import accepts: from ``exportIterations`` (anything fewer protects the key less than
    /// Limen promises) to 5,000,000 (about 8 s on a phone of 2026; an export asking more would make the device hang
    /// before it could even check the passphrase).
    public static let acceptedIterations = exportIterations...5_000_000

    /// The salt input (`p2s`) an export generates: 16 random bytes.
    public static let exportSaltByteCount = 16

    /// The salt input sizes, in bytes, an import accepts: 16 (RFC 7518 asks for at least 8) to 256.
    public static let acceptedSaltByteCounts = exportSaltByteCount...256

    /// The key management algorithm of an export.
    static let exportAlgorithm = PBES2Algorithm.hs512A256KW

    /// This key as a compact JWE protected by `passphrase`: a random content key encrypts the JWK with `A256GCM` and
    /// is wrapped with a key derived from the passphrase by PBKDF2-HMAC-SHA-512 (``exportIterations`` rounds, a fresh
    /// random salt). Any JOSE library that supports `PBES2-HS512+A256KW` opens it with the passphrase.
    ///
    /// ```swift
    /// let export = try key.exported(passphrase: "correct horse battery staple")
    /// // on the other device:
    /// let same = try FieldEncryptionKey(importing: export, passphrase: "correct horse battery staple")
    /// ```
    public func exported(passphrase: String) throws(EncryptionError) -> String {
        try exported(passphrase: passphrase, saltInput: RandomToken.bytes(count: Self.exportSaltByteCount))
    }

    /// This key exported with the given salt input (and ``exportIterations``): the deterministic part of
    /// ``exported(passphrase:)``, for tests.
    package func exported(passphrase: String, saltInput: [UInt8]) throws(EncryptionError) -> String {
        let algorithm = Self.exportAlgorithm
        let contentKey = SymmetricKey(size: .bits256)
        let encryptedKey = try algorithm.wrap(
            contentKey, passphrase: passphrase, saltInput: saltInput, iterations: Self.exportIterations)
        let header: [String: JSONValue] = [
            "alg": .string(algorithm.rawValue), "enc": .string(Self.encryption), "cty": .string("jwk+json"),
            "p2s": .string(Base64URL.encode(saltInput)), "p2c": .number(Double(Self.exportIterations)),
        ]
        return try ContentEncryption.seal(
            jwk, protectedHeader: Base64URL.encode(JSONValue.object(header).serialized()), header: header,
            encryptedKey: encryptedKey, contentKey: contentKey
        ).serialized
    }

    /// The key in an export made by ``exported(passphrase:)`` (or by any JOSE library, with
    /// `PBES2-HS512+A256KW`, `A256GCM`, and a 256-bit `oct` JWK as payload).
    ///
    /// The iteration count and salt are checked before any work, so a hostile export can neither pass with a weak
    /// derivation nor make the device spin.
    /// - Throws: ``EncryptionError/malformed(_:)`` for a text that is not such a JWE,
    ///   ``EncryptionError/unsupportedAlgorithm(_:)`` / ``EncryptionError/unsupportedEncryption(_:)`` for other
    ///   algorithms, ``EncryptionError/keyDerivationOutOfBounds(parameter:value:)`` for a `p2c` outside
    ///   ``acceptedIterations`` or a `p2s` outside ``acceptedSaltByteCounts``, ``EncryptionError/wrongPassphrase``,
    ///   ``EncryptionError/tampered`` when the content's tag does not verify.
    public init(importing export: String, passphrase: String) throws(EncryptionError) {
        let jwe = try CompactJWE(export)
        try jwe.refuseUnimplementedParameters()
        guard jwe.algorithm == Self.exportAlgorithm.rawValue else { throw .unsupportedAlgorithm(jwe.algorithm) }
        guard jwe.encryption == Self.encryption else { throw .unsupportedEncryption(jwe.encryption) }
        let (saltInput, iterations) = try Self.derivationParameters(in: jwe.header)
        guard jwe.encryptedKey.count == Self.byteCount + 8 else { throw .malformed(.invalidLength(.encryptedKey)) }
        let contentKey = try Self.exportAlgorithm.unwrap(
            jwe.encryptedKey, passphrase: passphrase, saltInput: saltInput, iterations: iterations)
        try self.init(jwk: try ContentEncryption.open(jwe, contentKey: contentKey))
    }

    /// The salt input and iteration count of a PBES2 header, within the accepted bounds.
    static func derivationParameters(in header: [String: JSONValue]) throws(EncryptionError) -> (
        saltInput: [UInt8], iterations: Int
    ) {
        guard let count = header["p2c"] else { throw .malformed(.missingHeaderParameter("p2c")) }
        guard let number = count.numberValue, number.rounded(.towardZero) == number else {
            throw .malformed(.invalidHeaderParameter("p2c"))
        }
        guard number >= Double(acceptedIterations.lowerBound), number <= Double(acceptedIterations.upperBound) else {
            let reported = Int(exactly: number) ?? (number < 0 ? Int.min : Int.max)
            throw .keyDerivationOutOfBounds(parameter: "p2c", value: reported)
        }
        guard let salt = header["p2s"] else { throw .malformed(.missingHeaderParameter("p2s")) }
        guard let encoded = salt.stringValue, let saltInput = Base64URL.byteArray(encoded) else {
            throw .malformed(.invalidHeaderParameter("p2s"))
        }
        guard acceptedSaltByteCounts.contains(saltInput.count) else {
            throw .keyDerivationOutOfBounds(parameter: "p2s", value: saltInput.count)
        }
        return (saltInput, Int(number))
    }
}
