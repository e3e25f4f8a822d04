import Foundation
import LimenServerStorage
import LimenWire

/// Starts device authorizations (RFC 8628 §3.1–§3.2): a 256-bit device code stored only as its SHA-256 and a user code
/// stored only as an HMAC under a server key (``UserCode``), valid for ``lifetime``, to be polled no faster than every ``interval`` seconds.
package struct DeviceFlow: Sendable {
    /// How long the codes are accepted: 10 minutes.
    package static let lifetime: TimeInterval = 600
    /// The initial minimum seconds between polls (RFC 8628 §3.2 default).
    package static let interval = 5
    /// How much each `slow_down` adds to the interval (RFC 8628 §3.5).
    package static let slowDownStep = 5
    /// The path of the verification page.
    package static let verificationPath = "/device"

    /// The codes of a started authorization, shown once.
    package struct Started: Sendable, Equatable {
        /// The secret the device polls with.
        package var deviceCode: String
        /// What the user types, `XXXX-XXXX`.
        package var userCode: String
    }

    /// Where authorizations are kept.
    package let store: any DeviceAuthorizationStore
    /// Keys the user codes' hashes.
    package let keys: DerivedKeys
    /// The provider's clock.
    package let now: @Sendable () -> Date

    /// Makes it of its parts.
    package init(store: any DeviceAuthorizationStore, keys: DerivedKeys, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.keys = keys
        self.now = now
    }

    /// Stores a new authorization for `client` and `scope`; another user code is drawn when one is taken. `nil` when
    /// no free user code was found (practically impossible: 20⁸ codes).
    package func start(client: ClientRecord, scope: String) async throws(StorageError) -> Started? {
        let now = Date(timeIntervalSince1970: self.now().timeIntervalSince1970.rounded(.down))
        let deviceCode = RandomIdentifier.make()
        for _ in 0..<3 {
            let userCode = UserCode.make()
            let record = DeviceAuthorizationRecord(
                deviceCodeHash: RandomIdentifier.hash(deviceCode),
                userCodeHash: UserCode.hash(normalised: userCode.filter { $0 != "-" }, keys: keys),
                clientID: client.id,
                scope: scope,
                interval: Self.interval,
                createdAt: now,
                expiresAt: now.addingTimeInterval(Self.lifetime)
            )
            if try await store.insertDeviceAuthorization(record) {
                return Started(deviceCode: deviceCode, userCode: userCode)
            }
        }
        return nil
    }

    /// The RFC 8628 §3.2 response body for `started` at `issuer`.
    package static func responseBody(_ started: Started, issuer: String) -> JSONValue {
        let verificationURI = issuer + verificationPath
        return .object([
            "device_code": .string(started.deviceCode),
            "user_code": .string(started.userCode),
            "verification_uri": .string(verificationURI),
            "verification_uri_complete": .string(
                verificationURI + "?" + FormEncoding.encode([("user_code", started.userCode)])),
            "expires_in": .number(lifetime),
            "interval": .number(Double(interval)),
        ])
    }
}
