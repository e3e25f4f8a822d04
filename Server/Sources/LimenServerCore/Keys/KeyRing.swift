import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// The provider's signing keys, loaded from the store (and created there on first run).
///
/// Rotation (``rotate(store:masterKey:now:publishAhead:logger:)``) publishes a new key before it signs, so clients
/// caching the JWKS already hold it; a retired key stays published for ``retention`` after it stopped signing, so
/// tokens it signed still verify until they expire.
public struct KeyRing: Sendable {
    /// How long a retired key stays in the JWKS: longer than any token it signed lives.
    public static let retention: TimeInterval = 24 * 3600

    /// Every stored key, oldest first.
    public let keys: [SigningKey]

    /// Loads the stored keys, generating and storing an ES256 and an RS256 key when either is missing. Nodes starting
    /// together on one database end with the same keys: each stores its key only if no other node's is stored
    /// (``FirstRunStore``), and then loads what is stored.
    public static func loadOrCreate(
        store: any SigningKeyStore & FirstRunStore,
        masterKey: MasterKey,
        now: Date,
        logger: Logger = Logger(label: "limen.keys")
    ) async throws -> KeyRing {
        let now = wholeSeconds(now)
        var records = try await store.signingKeys()
        let missing = SigningAlgorithm.allCases.filter { algorithm in
            !records.contains { $0.algorithm == algorithm.rawValue }
        }
        if !missing.isEmpty {
            for algorithm in missing {
                let key = try SigningKey.generate(algorithm: algorithm, now: now)
                if try await store.insertSigningKeyIfAlgorithmAbsent(key.record(sealedWith: masterKey)) {
                    logger.info("Created a signing key", metadata: ["kid": "\(key.kid)", "alg": "\(algorithm)"])
                }
            }
            records = try await store.signingKeys()
        }
        let keys = try records.map { try SigningKey(record: $0, masterKey: masterKey) }
        return KeyRing(keys: keys.sorted { ($0.createdAt, $0.kid) < ($1.createdAt, $1.kid) })
    }

    /// Adds a new ES256 and RS256 key that sign from `now + publishAhead`, and retires the keys they replace at that
    /// moment, each new key recorded as `key.rotated` from `origin`. Returns the ring as stored afterwards.
    public static func rotate(
        store: any SigningKeyStore & FirstRunStore,
        masterKey: MasterKey,
        now: Date,
        publishAhead: TimeInterval = 3600,
        origin: RequestOrigin = .commandLine,
        logger: Logger = Logger(label: "limen.keys")
    ) async throws -> KeyRing {
        let now = wholeSeconds(now)
        let current = try await loadOrCreate(store: store, masterKey: masterKey, now: now, logger: logger)
        let switchover = now.addingTimeInterval(publishAhead.rounded(.down))
        for algorithm in SigningAlgorithm.allCases {
            let key = try SigningKey.generate(algorithm: algorithm, now: now, activatesAt: switchover)
            let rotated = SecurityEvent(.keyRotated, details: .rotatedKey(kid: key.kid, algorithm: algorithm))
            try await store.insertSigningKey(
                key.record(sealedWith: masterKey),
                recording: SecurityEventRecorder(now: { now }).records([rotated], from: origin))
            for old in current.keys where old.algorithm == algorithm && old.retiredAt == nil {
                try await store.retireSigningKey(kid: old.kid, at: switchover)
            }
            logger.info(
                "Rotated a signing key",
                metadata: ["kid": "\(key.kid)", "alg": "\(algorithm)", "signs_from": "\(switchover)"]
            )
        }
        return try await loadOrCreate(store: store, masterKey: masterKey, now: now, logger: logger)
    }

    /// The key that signs for `algorithm` at `date`: the newest one that is active and not retired.
    public func signingKey(for algorithm: SigningAlgorithm, at date: Date) -> SigningKey? {
        keys.last { $0.algorithm == algorithm && $0.signs(at: date) }
    }

    /// The keys published at `date`: every key not retired for longer than ``retention``.
    public func publishedKeys(at date: Date) -> [SigningKey] {
        keys.filter { key in key.retiredAt.map { date < $0.addingTimeInterval(Self.retention) } ?? true }
    }

    /// The published key set (`/jwks`) at `date`.
    public func jwks(at date: Date) -> [String: JSONValue] {
        ["keys": .array(publishedKeys(at: date).map { .object($0.publicJWK) })]
    }

    /// Whole seconds, as the store keeps them, so a restart sees exactly the same times.
    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
