import Foundation
import LimenWire
import Logging

extension ProfileClient {
    /// The signed-in user's field-encryption key; a new one is created and stored when there is none and `creating`.
    ///
    /// Without entering an actor when the state says who is signed in and the key ring holds their key: encrypting
    /// many fields costs no executor hops.
    func fieldEncryptionKey(creating: Bool) async throws(LimenError) -> FieldEncryptionKey {
        let current = stateStore.state
        if current.phase == .signedIn, let userID = current.user.id, let key = keyring.rememberedKey(for: userID) {
            return key
        }
        return try await keyring.key(for: try await session.signedInUserID(), creating: creating)
    }

    /// What signing `userID` out does to their key: dropped from memory, and deleted from the store when
    /// ``Configuration/encryptionKeyOnSignOut`` says so. Returns the store's refusal to delete it, if any.
    func retireEncryptionKey(of userID: String) async -> LimenError? {
        keyring.forget()
        guard configuration.encryptionKeyOnSignOut == .delete else { return nil }
        do {
            try await keyring.delete(for: userID)
            return nil
        } catch {
            logger.warning("field-encryption key not deleted at sign-out", metadata: ["code": "\(error.code)"])
            return error
        }
    }

    /// After a sign-in: when the app schema enables field encryption, makes sure the user has a key on this device
    /// (a random 256-bit key created in the secure store, never sent). A provider without an app schema, or a failure
    /// here, leaves the sign-in as it is: the key is then created by the first encryption.
    func createEncryptionKeyIfEnabled() async {
        do throws(LimenError) {
            guard try await appSchema().isEncryptionEnabled else { return }
            _ = try await fieldEncryptionKey(creating: true)
        } catch {
            logger.debug("no field-encryption key prepared at sign-in", metadata: ["code": "\(error.code)"])
        }
    }
}
