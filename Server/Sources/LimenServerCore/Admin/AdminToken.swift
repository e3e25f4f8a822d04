import Foundation
import LimenServerStorage

/// The admin API's bearer token: 256 random bits, shown once by `limen-server admin-token`, kept only as its SHA-256
/// in the store, like a client secret.
///
/// The hash lives in the store rather than in a file of the data folder so that every node of a PostgreSQL
/// deployment sees the same token, and a new token (or its removal) reaches running servers without a restart.
///
/// ```swift
/// let token = try await AdminToken.replace(in: store, now: Date())   // print it once
/// ```
public enum AdminToken {
    /// Generates a new token, stores its hash in place of any previous token's, and returns it (the only copy).
    public static func replace(in store: any AdministrationStore, now: Date) async throws(StorageError) -> String {
        let token = ClientSecret.generate()
        try await store.setAdminTokenHash(ClientSecret.hash(token), at: now)
        return token
    }

    /// Forgets the token: the admin API answers 404 until a new one is made.
    public static func remove(from store: any AdministrationStore, now: Date) async throws(StorageError) {
        try await store.setAdminTokenHash(nil, at: now)
    }

    /// Whether `presented` is the token whose hash is `stored`, in constant time.
    package static func matches(_ presented: String, hash stored: Data) -> Bool {
        ClientSecret.matches(presented, hash: stored)
    }
}
