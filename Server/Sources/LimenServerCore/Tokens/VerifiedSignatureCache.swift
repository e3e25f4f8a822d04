import Foundation
import NIOConcurrencyHelpers

/// Access tokens, byte for byte, whose signature this process has already verified, kept until they expire.
///
/// A resource server introspects the same token on every call its client makes, and the ES256 check is the largest
/// part of an introspection's CPU time. A signature never stops being valid for the same bytes, so the verdict is
/// reused for the identical token (compared in full, not by a digest; as Envoy's `jwt_cache_config` does). It holds
/// verdicts on signatures only: the caller still requires the signing key to be published now, and checks every
/// claim, the grant and the revocation list on every request. Only tokens that passed every check are added.
///
/// At most ``capacity`` tokens are kept: when full, expired ones are dropped first, and if none has expired the cache
/// starts over.
package final class VerifiedSignatureCache: Sendable {
    /// How many tokens are kept by default (about 1 KB each).
    package static let defaultCapacity = 4096

    /// How many tokens are kept at most.
    package let capacity: Int
    /// Each token's expiry, by the token.
    private let expiries = NIOLockedValueBox([String: Date]())

    /// Creates an empty cache of at most `capacity` tokens.
    package init(capacity: Int = defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// Whether `token`'s signature was verified and the token has not expired at `now`.
    package func contains(_ token: String, at now: Date) -> Bool {
        guard let expiry = expiries.withLockedValue({ $0[token] }) else { return false }
        return now < expiry
    }

    /// Records that `token`, which expires at `expiresAt`, carries a valid signature.
    package func insert(_ token: String, expiresAt: Date, now: Date) {
        expiries.withLockedValue { expiries in
            if expiries[token] == nil, expiries.count >= capacity {
                expiries = expiries.filter { now < $0.value }
                if expiries.count >= capacity { expiries.removeAll(keepingCapacity: true) }
            }
            expiries[token] = expiresAt
        }
    }

    /// How many tokens are kept now.
    package var count: Int {
        expiries.withLockedValue(\.count)
    }
}
