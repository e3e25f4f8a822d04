import Foundation
import Synchronization

/// Remembers the `jti` of the DPoP proofs a server accepted, for as long as each could be accepted, so that a proof
/// sent twice is refused the second time (RFC 9449 §11.1).
///
/// A `jti` is kept per key (its thumbprint), for the verifier window's span after it was first seen: a proof is
/// accepted only while its `iat` lies in the window, at most `future + past` seconds from its first possible use.
///
/// Bounded: at most `capacity` entries. Expired entries go first (oldest first, each in constant time); when the cache
/// is full of entries that have not expired, ``admit(jti:thumbprint:now:)`` answers ``Admission/full`` and remembers
/// nothing. The cache refuses rather than evicts: evicting a live entry would let an attacker flush a captured proof's
/// `jti` out with a burst of proofs of their own and then replay it. Answer ``Admission/full`` with 503 and
/// `Retry-After`. Admit a proof only after the request's other checks (its access token or client authentication),
/// so that anonymous proofs cannot fill it.
///
/// An entry is 36 bytes of state: the first 16 bytes of SHA-256(thumbprint ‖ 0 ‖ jti) in a hash set, the same digest
/// and a 4-byte expiry (whole seconds, rounded up) in a ring of admission order. Both are reserved for `capacity` at
/// once and become resident as entries arrive. Measured in a release build (`BENCH_ONLY=dpop-memory
/// LimenServerBenchmarks`), admitting 700,000 entries adds 31 MiB to the process's resident memory (46 bytes an
/// entry: the set's buckets are a power of two at most ¾ full), and 1,000,000 adds 53 MiB (55 bytes). Each node's cap
/// is `capacity / retention` proofs a second: the default 700,000 over the default window's 70 s (60 s past, 10 s
/// future) is 10,000 proofs a second, in about 32 MB when full.
///
/// The cache is one node's memory: behind several nodes, each remembers its own proofs (RFC 9449 §11.1 lets servers
/// bind proofs to a nonce instead, which a shared store can serve).
///
/// ```swift
/// let replays = DPoPReplayCache(window: verifier.window)
/// switch replays.admit(proof, now: Date()) {
/// case .fresh: break
/// case .replayed: throw …   // invalid_dpop_proof
/// case .full: throw …       // 503, Retry-After
/// }
/// ```
public final class DPoPReplayCache: Sendable {
    /// What ``DPoPReplayCache/admit(jti:thumbprint:now:)`` decided.
    public enum Admission: Sendable, Equatable {
        /// The `jti` was not seen in its window: the proof may be used, and the `jti` is now remembered.
        case fresh
        /// The `jti` was seen, with the same key, within its window: the proof is a replay.
        case replayed
        /// The cache holds `capacity` entries, none expired: the `jti` was not remembered, so the proof must be refused.
        case full
    }

    /// How many entries are kept by default: 10,000 proofs a second over the default window's 70 s, about 32 MB.
    public static let defaultCapacity = 700_000

    /// How many entries are kept at most.
    public let capacity: Int
    /// How long an entry is kept after it was admitted, in seconds.
    public let retention: TimeInterval

    private let state: Mutex<State>

    /// The entries, and the order they expire in.
    private struct State {
        /// The digests of the entries held.
        var digests: Set<DPoPReplayDigest>
        /// The entries in the order they were admitted, with their expiries.
        var order: DPoPReplayEntries

        /// Forgets the entries that expired at `now`, oldest first. Entries expire in the order they were admitted
        /// (each is kept `retention` after its admission), so the first one that has not expired ends the sweep; a
        /// clock set back only delays it.
        mutating func removeExpired(now: Double) {
            while let oldest = order.oldest, Double(oldest.expiry) <= now {
                digests.remove(oldest.digest)
                order.removeOldest()
            }
        }
    }

    /// An empty cache keeping each `jti` for `retention` seconds, at most `capacity` of them.
    public init(retention: TimeInterval, capacity: Int = defaultCapacity) {
        self.retention = retention
        self.capacity = max(1, capacity)
        // Reserved at once, resident only as entries arrive: growing by copies would leave the old copies' memory with
        // the allocator (a measured 60 bytes an entry instead of 46).
        state = Mutex(
            State(digests: Set(minimumCapacity: self.capacity), order: DPoPReplayEntries(limit: self.capacity)))
    }

    /// An empty cache keeping each `jti` for the span of a ``DPoPVerifier``'s window, at most `capacity` of them.
    public convenience init(window: DPoPVerifier.IssuedAtWindow, capacity: Int = defaultCapacity) {
        self.init(retention: window.span, capacity: capacity)
    }

    /// Admits a verified proof's `jti`, unless it is a replay or the cache is full.
    public func admit(_ proof: VerifiedDPoPProof, now: Date) -> Admission {
        admit(jti: proof.jti, thumbprint: proof.thumbprint, now: now)
    }

    /// Admits `jti`, of a proof signed by the key `thumbprint`, at `now`: ``Admission/fresh`` (and remembers it)
    /// unless it was admitted within ``retention`` before, or the cache is full of live entries.
    public func admit(jti: String, thumbprint: String, now: Date) -> Admission {
        let digest = DPoPReplayDigest(thumbprint: thumbprint, jti: jti)
        let seconds = now.timeIntervalSince1970
        // Rounded up, so that an entry is never forgotten before its window ends.
        let expiry = UInt32(clamping: Int64((seconds + retention).rounded(.up)))
        return state.withLock { state in
            state.removeExpired(now: seconds)
            if state.digests.contains(digest) { return .replayed }
            guard state.order.append(digest, expiry: expiry) else { return .full }
            state.digests.insert(digest)
            return .fresh
        }
    }

    /// How many entries are kept now (expired ones included until the next admission sweeps them).
    public var count: Int {
        state.withLock { $0.digests.count }
    }
}
