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
/// `jti` out with a burst of proofs of their own and then replay it. Size it for the proofs a node accepts in a window
/// (entries are about 200 bytes; the default 100,000 is about 20 MB) and answer ``Admission/full`` with 503 and
/// `Retry-After`. Admit a proof only after the request's other checks (its access token or client authentication),
/// so that anonymous proofs cannot fill it.
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

    /// How many entries are kept by default.
    public static let defaultCapacity = 100_000

    /// How many entries are kept at most.
    public let capacity: Int
    /// How long an entry is kept after it was admitted, in seconds.
    public let retention: TimeInterval

    private let state: Mutex<State>

    /// The entries, and the order they expire in.
    private struct State {
        /// Each entry's expiry, by key (`thumbprint` and `jti`).
        var expiries: [Entry: Date] = [:]
        /// The entries in the order they were admitted, from `head` on (earlier slots are spent).
        var queue: [Entry] = []
        var head = 0

        /// Forgets the entries that expired at `now`, oldest first. Entries expire in the order they were admitted
        /// (each is kept `retention` after its admission), so the first one that has not expired ends the sweep; a
        /// clock set back only delays it.
        mutating func removeExpired(now: Date) {
            while head < queue.count {
                // An entry admitted again after it expired has a second, later slot; its first finds it gone.
                if let expiry = expiries[queue[head]] {
                    guard expiry <= now else { break }
                    expiries[queue[head]] = nil
                }
                head += 1
            }
            if head > 1024, head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
        }
    }

    private struct Entry: Hashable {
        let thumbprint: String
        let jti: String
    }

    /// An empty cache keeping each `jti` for `retention` seconds, at most `capacity` of them.
    public init(retention: TimeInterval, capacity: Int = defaultCapacity) {
        self.retention = retention
        self.capacity = max(1, capacity)
        state = Mutex(State())
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
        let entry = Entry(thumbprint: thumbprint, jti: jti)
        return state.withLock { state in
            state.removeExpired(now: now)
            if let expiry = state.expiries[entry], now < expiry { return .replayed }
            guard state.expiries[entry] != nil || state.expiries.count < capacity else { return .full }
            state.expiries[entry] = now.addingTimeInterval(retention)
            state.queue.append(entry)
            return .fresh
        }
    }

    /// How many entries are kept now (expired ones included until the next admission sweeps them).
    public var count: Int {
        state.withLock { $0.expiries.count }
    }
}
