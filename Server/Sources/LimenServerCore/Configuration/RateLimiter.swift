import Foundation
import NIOConcurrencyHelpers

/// How many requests one key may make: a burst, refilled at a steady rate (a token bucket).
public struct RateLimit: Sendable, Equatable {
    /// Requests allowed at once after a quiet spell.
    public var burst: Double
    /// Requests allowed per second, sustained.
    public var perSecond: Double

    /// Creates a limit. A burst under one request is raised to one: a request takes a whole token, so a smaller bucket
    /// would never admit anything.
    public init(burst: Double, perSecond: Double) {
        self.burst = max(1, burst)
        self.perSecond = perSecond
    }

    /// Per client address, for every POST (sign-in forms, `/token`, revocation, …): bursts of 60, then 20 a second.
    public static let defaultPerClientAddress = RateLimit(burst: 60, perSecond: 20)
    /// Per client address, for sign-in and sign-up POSTs (each costs a password hash): bursts of 3, then 1 a second.
    public static let defaultSignInPerClientAddress = RateLimit(burst: 3, perSecond: 1)

    /// Reads a setting `N/s`: N requests a second, in bursts of 3 N but at least one request (so `0.2/s` admits one
    /// request every 5 seconds); `nil` for anything else.
    package init?(setting: String) {
        guard setting.hasSuffix("/s"), let rate = Double(setting.dropLast(2)), rate > 0, rate.isFinite else {
            return nil
        }
        self.init(burst: 3 * rate, perSecond: rate)
    }
}

/// Token buckets by client address, kept in this node's memory; an IPv6 address is counted with its /64
/// (``ClientNetwork``).
///
/// Full buckets are forgotten when the table grows past ``maximumKeys``, so the memory stays bounded under a flood
/// of addresses.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedAt: Date
    }

    /// The limit applied to every key.
    public let limit: RateLimit
    /// How many keys are kept before full buckets are dropped.
    public let maximumKeys: Int
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])

    /// Creates a limiter.
    public init(limit: RateLimit, maximumKeys: Int = 100_000) {
        self.limit = limit
        self.maximumKeys = maximumKeys
    }

    /// Takes one request's token for `clientAddress` at `now`: `nil` when admitted, otherwise the seconds until one is
    /// free.
    public func admit(_ clientAddress: String, at now: Date) -> TimeInterval? {
        let key = ClientNetwork.key(of: clientAddress)
        return buckets.withLockedValue { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: limit.burst, updatedAt: now)
            let elapsed = max(0, now.timeIntervalSince(bucket.updatedAt))
            bucket.tokens = min(limit.burst, bucket.tokens + elapsed * limit.perSecond)
            bucket.updatedAt = now
            defer {
                buckets[key] = bucket
                if buckets.count > maximumKeys { forgetFullBuckets(&buckets, at: now) }
            }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / limit.perSecond }
            bucket.tokens -= 1
            return nil
        }
    }

    private func forgetFullBuckets(_ buckets: inout [String: Bucket], at now: Date) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + now.timeIntervalSince(bucket.updatedAt) * limit.perSecond < limit.burst
        }
    }
}
