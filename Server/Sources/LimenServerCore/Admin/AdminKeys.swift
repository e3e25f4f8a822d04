import Foundation
import LimenServerStorage
import LimenServerWire

/// The signing keys as an admin lists and rotates them, through the admin API and the console: the running node's key
/// ring, replaced at once after a rotation here, so `/jwks` publishes the new keys without waiting for
/// ``KeyRingRefresher`` (which brings them to the other nodes within its interval).
package struct AdminKeys: Sendable {
    private let ring: KeyRingBox
    private let store: any SigningKeyStore & FirstRunStore
    private let masterKey: MasterKey
    private let now: @Sendable () -> Date

    /// The keys of `ring`, stored in `store` sealed with `masterKey`.
    package init(
        ring: KeyRingBox, store: any SigningKeyStore & FirstRunStore, masterKey: MasterKey,
        now: @escaping @Sendable () -> Date
    ) {
        (self.ring, self.store, self.masterKey, self.now) = (ring, store, masterKey, now)
    }

    /// The keys this node holds now, oldest first, each with its state.
    package func list() -> [(key: SigningKey, state: SigningKeyState)] {
        let ring = ring.current
        let date = now()
        return ring.keys.map { ($0, ring.state(of: $0, at: date)) }
    }

    /// Adds new ES256 and RS256 keys, published now and signing after `publishAhead` seconds, the keys they replace
    /// retiring then (``KeyRing/rotate(store:masterKey:now:publishAhead:origin:logger:)``), each recorded as
    /// `key.rotated` from `origin`; this node's ring is the stored one from then on.
    package func rotate(origin: RequestOrigin, publishAhead: TimeInterval = 3600) async throws(AdminError) {
        do {
            ring.replace(
                with: try await KeyRing.rotate(
                    store: store, masterKey: masterKey, now: now(), publishAhead: publishAhead, origin: origin))
        } catch let error as StorageError {
            throw AdminError(error)
        } catch {
            throw .serverError
        }
    }
}

/// A signing key as the admin API shows it: never its private part.
package struct AdminKeyResource: Encodable, Sendable {
    package var kid: String
    package var alg: String
    package var state: String
    package var createdAt: Int
    package var activatesAt: Int
    package var retiredAt: Int?

    package enum CodingKeys: String, CodingKey {
        case kid, alg, state
        case createdAt = "created_at"
        case activatesAt = "activates_at"
        case retiredAt = "retired_at"
    }

    /// The resource of `key`, in `state`.
    package init(_ key: SigningKey, state: SigningKeyState) {
        (kid, alg, self.state) = (key.kid, key.algorithm.rawValue, state.rawValue)
        createdAt = Int(key.createdAt.timeIntervalSince1970)
        activatesAt = Int(key.activatesAt.timeIntervalSince1970)
        retiredAt = key.retiredAt.map { Int($0.timeIntervalSince1970) }
    }
}

/// `GET /admin/keys` and the answer to `POST /admin/keys/rotate`: every key, oldest first.
package struct AdminKeyList: Encodable, Sendable {
    package var keys: [AdminKeyResource]

    /// The list of `keys`, each in its state.
    package init(_ keys: [(key: SigningKey, state: SigningKeyState)]) {
        self.keys = keys.map { AdminKeyResource($0.key, state: $0.state) }
    }
}
