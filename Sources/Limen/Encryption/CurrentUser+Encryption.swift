import Foundation
import LimenWire

/// On-device field encryption (Rownd's `user.encrypt` / `user.decrypt`), as standard JWE.
///
/// Each user has a random 256-bit key, created in the client's secure store the first time it is needed (the
/// Keychain in an Apple app, an ``EncryptedFileStore`` elsewhere) and never sent anywhere: a value encrypted here is
/// a compact JWE with `alg: dir`, `enc: A256GCM` and the key's RFC 7638 thumbprint as `kid`
/// (`FieldEncryptionKey`), which any JOSE library given the key can read. To read the values on another device,
/// move the key there with ``exportEncryptionKey(passphrase:)`` and ``importEncryptionKey(_:passphrase:)``.
///
/// Failures of the encryption itself are ``LimenError/encryption(_:)`` with an `EncryptionError`; with nobody
/// signed in, ``LimenError/notSignedIn``; a failing store, ``LimenError/storage(_:)``.
extension CurrentUser {
    /// Encrypts `plaintext` with the signed-in user's key (created and stored first if they have none).
    ///
    /// ```swift
    /// let field = try await client.user.encrypt(plaintext: "4111 1111 1111 1111")
    /// // "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoi….….….…"
    /// ```
    public func encrypt(plaintext: String) async throws(LimenError) -> String {
        let key = try await client.profiles.fieldEncryptionKey(creating: true)
        do {
            return try key.encrypt(Data(plaintext.utf8))
        } catch {
            throw .encryption(error)
        }
    }

    /// Decrypts a value made by ``encrypt(plaintext:)`` (or by any JOSE library with this user's key).
    /// - Throws: ``LimenError/encryption(_:)`` with `EncryptionError.noKey` when this user has no key on this device,
    ///   `EncryptionError.wrongKeyID` for a value made with another key, `EncryptionError.tampered`,
    ///   `EncryptionError.malformed` (also for a payload that is not UTF-8 text), or
    ///   `EncryptionError.unsupportedAlgorithm` / `EncryptionError.unsupportedEncryption`.
    public func decrypt(ciphertext: String) async throws(LimenError) -> String {
        let key = try await client.profiles.fieldEncryptionKey(creating: false)
        let plaintext: [UInt8]
        do {
            plaintext = try key.decrypt(ciphertext)
        } catch {
            throw .encryption(error)
        }
        guard let text = String(strictUTF8: plaintext) else {
            throw .encryption(.malformed(.invalidPayload))
        }
        return text
    }

    /// Whether ``encrypt(plaintext:)`` can work now: someone is signed in and their key is in the store or could be
    /// created there (it is then created).
    public func isEncryptionPossible() async -> Bool {
        (try? await client.profiles.fieldEncryptionKey(creating: true)) != nil
    }

    /// The signed-in user's key as a JWE protected by `passphrase` (`PBES2-HS512+A256KW` with 600,000 PBKDF2 rounds
    /// and a random salt, `A256GCM`), to carry to another device and import there with
    /// ``importEncryptionKey(_:passphrase:)``. Deriving the wrapping key takes a noticeable fraction of a second, on a
    /// thread of its own: the caller suspends, and other tasks keep running meanwhile.
    /// - Throws: ``LimenError/encryption(_:)`` with `EncryptionError.noKey` when this user has no key yet.
    public func exportEncryptionKey(passphrase: String) async throws(LimenError) -> String {
        let key = try await client.profiles.fieldEncryptionKey(creating: false)
        do {
            return try await OffPool.run { () throws(EncryptionError) in try key.exported(passphrase: passphrase) }
        } catch {
            throw .encryption(error)
        }
    }

    /// Makes the key in `export` (from ``exportEncryptionKey(passphrase:)`` on another device) the signed-in user's
    /// key here, replacing the one they had: values encrypted with a replaced key can no longer be read on this
    /// device.
    /// - Throws: ``LimenError/encryption(_:)`` with `EncryptionError.wrongPassphrase`,
    ///   `EncryptionError.keyDerivationOutOfBounds` for an export whose PBKDF2 parameters are
    ///   too weak or too costly, or the other `EncryptionError`s of a malformed or altered export.
    public func importEncryptionKey(_ export: String, passphrase: String) async throws(LimenError) {
        let userID = try await client.signedInUserID()
        let key: FieldEncryptionKey
        do {
            key = try await OffPool.run { () throws(EncryptionError) in
                try FieldEncryptionKey(importing: export, passphrase: passphrase)
            }
        } catch {
            throw .encryption(error)
        }
        try await client.keyring.replace(with: key, for: userID)
    }

    /// Deletes the signed-in user's key from this device, as signing out does with
    /// ``Configuration/encryptionKeyOnSignOut`` set to ``EncryptionKeyRetention/delete``.
    public func deleteEncryptionKey() async throws(LimenError) {
        try await client.keyring.delete(for: try await client.signedInUserID())
    }
}
