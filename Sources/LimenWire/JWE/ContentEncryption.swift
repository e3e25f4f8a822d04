import Crypto
import Foundation

/// JWE content encryption with AES-GCM (RFC 7518 §5.3), by swift-crypto: a 96-bit random IV, a 128-bit tag, and the
/// protected header's base64url as additional authenticated data.
///
/// Generic over the three key sizes so the RFC's known-answer vectors (which use `A128GCM`) exercise the same code;
/// what Limen itself writes and accepts is `A256GCM` only, decided by its callers.
package enum ContentEncryption {
    /// The content encryption key's size, in bytes, for each AES-GCM `enc` value.
    package static let keyByteCounts = ["A128GCM": 16, "A192GCM": 24, "A256GCM": 32]

    /// The IV size AES-GCM takes in JWE (RFC 7518 §5.3: 96 bits).
    static let initializationVectorByteCount = 12

    /// The tag size JWE uses with AES-GCM (RFC 7518 §5.3: 128 bits).
    static let tagByteCount = 16

    /// Encrypts `plaintext` under a protected header already encoded as `protectedHeader` (the base64url of
    /// `header`, whose `enc` must name an AES-GCM of `contentKey`'s size), with a fresh random IV.
    /// - Throws: ``EncryptionError/malformed(_:)`` (``JWEMalformation/invalidPayload``) when AES-GCM refuses the
    ///   plaintext: only one over its limit of 64 GiB; the callers pass keys of the right size.
    package static func seal(
        _ plaintext: some DataProtocol,
        protectedHeader: String,
        header: [String: JSONValue],
        encryptedKey: [UInt8] = [],
        contentKey: SymmetricKey
    ) throws(EncryptionError) -> CompactJWE {
        let nonce = AES.GCM.Nonce()
        let box: AES.GCM.SealedBox
        do {
            box = try AES.GCM.seal(
                plaintext, using: contentKey, nonce: nonce, authenticating: Array(protectedHeader.utf8))
        } catch {
            throw .malformed(.invalidPayload)
        }
        return CompactJWE(
            protectedHeader: protectedHeader, header: header, encryptedKey: encryptedKey,
            initializationVector: Array(nonce), ciphertext: Array(box.ciphertext), tag: Array(box.tag))
    }

    /// Decrypts `jwe`'s content with `contentKey`.
    /// - Throws: ``EncryptionError/unsupportedEncryption(_:)`` when `enc` is not an AES-GCM of `contentKey`'s size,
    ///   ``EncryptionError/malformed(_:)`` for an IV or tag of the wrong length, ``EncryptionError/tampered`` when
    ///   the tag does not verify.
    package static func open(_ jwe: CompactJWE, contentKey: SymmetricKey) throws(EncryptionError) -> [UInt8] {
        guard let encryption = jwe.encryption, keyByteCounts[encryption] == contentKey.bitCount / 8 else {
            throw .unsupportedEncryption(jwe.encryption)
        }
        guard jwe.initializationVector.count == initializationVectorByteCount else {
            throw .malformed(.invalidLength(.initializationVector))
        }
        guard jwe.tag.count == tagByteCount else { throw .malformed(.invalidLength(.tag)) }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: jwe.initializationVector), ciphertext: jwe.ciphertext, tag: jwe.tag)
            return Array(try AES.GCM.open(box, using: contentKey, authenticating: jwe.additionalAuthenticatedData))
        } catch {
            throw .tampered
        }
    }
}
