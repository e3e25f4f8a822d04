/// What signing out does with the signed-in user's field-encryption key (``Configuration/encryptionKeyOnSignOut``).
public enum EncryptionKeyRetention: String, Sendable, Equatable {
    /// The key stays in the secure store, under the user's ID, so the same user signing in again on this device reads
    /// their encrypted fields again (the default).
    case keep
    /// The key is deleted from the secure store: values encrypted with it can be read again only on a device that
    /// still has the key, or after importing an export of it.
    case delete
}
