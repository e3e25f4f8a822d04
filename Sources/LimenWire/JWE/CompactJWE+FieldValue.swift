import Foundation

/// The shape of an encrypted profile field: a compact JWE with `alg: dir`, `enc: A256GCM` and a `kid`.
extension CompactJWE {
    /// Parses `fieldValue` and checks that it has the shape of an encrypted field value as Limen's SDK (or any JOSE
    /// library using the same key) writes it: a compact JWE with `"alg": "dir"`, `"enc": "A256GCM"`, a non-empty
    /// string `kid`, no encrypted key, a 96-bit IV and a 128-bit tag, and no `crit` or `zip`.
    ///
    /// Nothing is decrypted: without the key (which never leaves the user's device) nobody can tell a real ciphertext
    /// from random bytes of the right shape. What this refuses is a value that is certainly not one, above all
    /// plaintext sent for a field the schema marks `encrypted`.
    /// - Throws: The ``EncryptionError`` that says why `fieldValue` is not an encrypted field value.
    public init(fieldValue: String) throws(EncryptionError) {
        try self.init(fieldValue: fieldValue, knownHeader: nil)
    }

    /// ``init(fieldValue:)``, taking the header's members from `knownHeader` when the header is its text.
    package init(fieldValue: String, knownHeader: KnownHeader?) throws(EncryptionError) {
        try self.init(fieldValue, knownHeader: knownHeader)
        try refuseUnimplementedParameters()
        guard algorithm == FieldEncryptionKey.algorithm else { throw .unsupportedAlgorithm(algorithm) }
        guard encryption == FieldEncryptionKey.encryption else { throw .unsupportedEncryption(encryption) }
        guard encryptedKey.isEmpty else { throw .malformed(.invalidLength(.encryptedKey)) }
        guard let keyID, !keyID.isEmpty else { throw .malformed(.missingHeaderParameter("kid")) }
        guard initializationVector.count == ContentEncryption.initializationVectorByteCount else {
            throw .malformed(.invalidLength(.initializationVector))
        }
        guard tag.count == ContentEncryption.tagByteCount else { throw .malformed(.invalidLength(.tag)) }
    }

    /// Whether `value` has the shape of an encrypted field value (see ``init(fieldValue:)``).
    ///
    /// Limen Server uses this to refuse a plaintext value for a field its schema marks `encrypted`, so that such a
    /// value can never be stored by mistake:
    ///
    /// ```swift
    /// guard CompactJWE.isFieldValue(submitted) else { throw badRequest("\(name) must be encrypted on the device") }
    /// ```
    public static func isFieldValue(_ value: String) -> Bool {
        (try? CompactJWE(fieldValue: value)) != nil
    }
}
