import Foundation
import LimenOIDC
import Logging

/// The provider's signing keys, loaded from the store (and created there on first run).
public struct KeyRing: Sendable {
    /// Every key, oldest first.
    public let keys: [SigningKey]

    /// Loads the stored keys, generating and storing an ES256 and an RS256 key when either is missing.
    public static func loadOrCreate(
        store: any Store,
        masterKey: MasterKey,
        now: Date = Date(),
        logger: Logger = Logger(label: "limen.keys")
    ) async throws -> KeyRing {
        // Whole seconds, as the store keeps them, so a restart orders the keys the same way.
        let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        var keys = try await store.signingKeys().map { try SigningKey(record: $0, masterKey: masterKey) }
        for algorithm in ["ES256", "RS256"] where !keys.contains(where: { $0.algorithm == algorithm }) {
            let key = try algorithm == "ES256" ? SigningKey.generateES256(now: now) : SigningKey.generateRS256(now: now)
            try await store.insertSigningKey(key.record(sealedWith: masterKey))
            logger.info("Created a signing key", metadata: ["kid": "\(key.kid)", "alg": "\(algorithm)"])
            keys.append(key)
        }
        return KeyRing(keys: keys.sorted { ($0.createdAt, $0.kid) < ($1.createdAt, $1.kid) })
    }

    /// The key that signs for `algorithm` (the newest one).
    public func signingKey(for algorithm: String) -> SigningKey? {
        keys.last { $0.algorithm == algorithm }
    }

    /// The published key set (`/jwks`).
    public var jwks: [String: JSONValue] {
        ["keys": .array(keys.map { .object($0.publicJWK) })]
    }
}
