import Foundation

/// Which Apple user identifier the signed-in Limen user signed in with on this device, kept in the client's
/// ``SecureStore`` so that ``AuthClient/checkCredentialState(using:)`` knows whom to ask Apple about after a restart.
struct AppleUserLink: Codable, Sendable, Equatable {
    /// The Limen user (the ID token's subject).
    var subject: String
    /// Apple's user identifier.
    var appleUser: String

    /// Reads and writes the link of one client, under its namespace.
    struct Store: Sendable {
        let store: any SecureStore
        let key: String

        init(store: any SecureStore, namespace: String) {
            self.store = store
            key = "\(namespace).apple_user"
        }

        /// The stored link; `nil` when there is none or it cannot be read (nothing to check then).
        func load() async -> AppleUserLink? {
            guard let data = try? await store.read(key) else { return nil }
            return try? JSONDecoder().decode(AppleUserLink.self, from: data)
        }

        /// Stores `link`, replacing the previous one.
        func save(_ link: AppleUserLink) async throws(StorageError) {
            guard let data = try? JSONEncoder().encode(link) else { throw .corrupted(key: key) }
            try await store.write(data, for: key)
        }

        /// Removes the link.
        func clear() async throws(StorageError) {
            try await store.delete(key)
        }
    }
}
