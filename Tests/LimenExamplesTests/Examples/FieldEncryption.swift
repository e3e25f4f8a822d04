import Foundation
import Limen

/// The field-encryption article's encrypt and decrypt example.
func fieldEncryption(client: AuthClient) async throws {
    // snippet: field-encryption
    let user = client.user
    if await user.isEncryptionPossible() {
        let field = try await user.encrypt(plaintext: "4111 1111 1111 1111")
        let card = try await user.decrypt(ciphertext: field)
        print(card == "4111 1111 1111 1111")
    }
    // end snippet
}

/// The field-encryption article's key-transfer example.
func fieldEncryptionTransfer(client: AuthClient, passphrase: String) async throws {
    // snippet: field-encryption-transfer
    // On the first device:
    let export = try await client.user.exportEncryptionKey(passphrase: passphrase)
    // On the second device, signed in as the same user:
    try await client.user.importEncryptionKey(export, passphrase: passphrase)
    // end snippet
}
