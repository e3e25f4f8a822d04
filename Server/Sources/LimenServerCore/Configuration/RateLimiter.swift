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
/// (``ClientNetwork``). With several nodes, ``RateLimitSharing`` gives each the others' admissions, so that the limit
/// holds for the deployment.
///
/// Full buckets are forgotten when the table grows past ``maximumKeys``, so the memory stays bounded under a flood
/// of addresses.
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updatedAt: Date
    }

    private struct State {
        var buckets: [String: Bucket] = [:]
        /// The requests admitted since ``takeAdmitted(atMost:)`` last took them, by key (only when shared).
        var admitted: [String: Int] = [:]
    }

    /// The limit applied to every key.
    public let limit: RateLimit
    /// How many keys are kept before full buckets are dropped.
    public let maximumKeys: Int
    /// Whether it keeps count of what it admits for the other nodes (``takeAdmitted(atMost:)``).
    public let isShared: Bool
    private let state = NIOLockedValueBox(State())

    /// Creates a limiter; a shared one counts what it admits for ``RateLimitSharing``.
    public init(limit: RateLimit, maximumKeys: Int = 100_000, isShared: Bool = false) {
        self.limit = limit
        self.maximumKeys = maximumKeys
        self.isShared = isShared
    }

    /// Takes one request's token for `clientAddress` at `now`: `nil` when admitted, otherwise the seconds until one is
    /// free.
    public func admit(_ clientAddress: String, at now: Date) -> TimeInterval? {
        let key = ClientNetwork.key(of: clientAddress)
        return state.withLockedValue { state in
            var bucket = refilled(state.buckets[key], at: now)
            defer {
                state.buckets[key] = bucket
                if state.buckets.count > maximumKeys { forgetFullBuckets(&state.buckets, at: now) }
            }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / limit.perSecond }
            bucket.tokens -= 1
            if isShared, state.admitted.count < maximumKeys || state.admitted[key] != nil {
                state.admitted[key, default: 0] += 1
            }
            return nil
        }
    }

    /// The requests admitted since the last call, by key, at most `limit` keys (those with the most); the rest are
    /// forgotten, so that what a node shares each time stays bounded under a flood of addresses.
    public func takeAdmitted(atMost limit: Int) -> [String: Int] {
        let admitted = state.withLockedValue { state in
            defer { state.admitted = [:] }
            return state.admitted
        }
        guard admitted.count > limit else { return admitted }
        return Dictionary(uniqueKeysWithValues: admitted.sorted { $0.value > $1.value }.prefix(limit).map { $0 })
    }

    /// Takes off the buckets what other nodes admitted, by key: a bucket may go into debt down to minus one burst,
    /// which it pays back before admitting again.
    public func debit(_ admittedElsewhere: [String: Int], at now: Date) {
        guard !admittedElsewhere.isEmpty else { return }
        state.withLockedValue { state in
            for (key, count) in admittedElsewhere {
                var bucket = refilled(state.buckets[key], at: now)
                bucket.tokens = max(-limit.burst, bucket.tokens - Double(count))
                state.buckets[key] = bucket
            }
            if state.buckets.count > maximumKeys { forgetFullBuckets(&state.buckets, at: now) }
        }
    }

    /// `bucket` (a full one when there is none) refilled up to `now`.
    private func refilled(_ bucket: Bucket?, at now: Date) -> Bucket {
        var bucket = bucket ?? Bucket(tokens: limit.burst, updatedAt: now)
        let elapsed = max(0, now.timeIntervalSince(bucket.updatedAt))
        bucket.tokens = min(limit.burst, bucket.tokens + elapsed * limit.perSecond)
        bucket.updatedAt = now
        return bucket
    }

    private func forgetFullBuckets(_ buckets: inout [String: Bucket], at now: Date) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + now.timeIntervalSince(bucket.updatedAt) * limit.perSecond < limit.burst
        }
    }
}
