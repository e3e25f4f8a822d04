import Crypto

/// A remembered proof's key in ``DPoPReplayCache``: the first 16 bytes of SHA-256(thumbprint ‖ 0x00 ‖ jti), whatever
/// the lengths of the two strings. The zero byte keeps the pair unambiguous (a thumbprint is base64url, never 0x00), so
/// one `jti` under two keys gives two digests; a collision of 128-bit digests is out of reach.
struct DPoPReplayDigest: Hashable {
    let high: UInt64
    let low: UInt64

    /// The digest of the proof with `jti` signed by the key `thumbprint`.
    init(thumbprint: String, jti: String) {
        var hash = SHA256()
        hash.update(data: Array(thumbprint.utf8))
        hash.update(data: [0])
        hash.update(data: Array(jti.utf8))
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in hash.finalize().prefix(16).enumerated() {
            if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
        }
        self.high = high
        self.low = low
    }
}

/// ``DPoPReplayCache``'s entries in the order they were admitted, each with its expiry in whole seconds since 1970: a
/// ring of at most `limit` slots, grown as needed and never beyond, so the order costs 20 bytes an entry.
struct DPoPReplayEntries {
    /// The most entries held.
    let limit: Int
    private var digests: [DPoPReplayDigest] = []
    private var expiries: [UInt32] = []
    /// The slot of the oldest entry.
    private var head = 0
    /// How many entries are held.
    private(set) var count = 0

    /// An empty ring of at most `limit` entries.
    init(limit: Int) {
        self.limit = limit
    }

    /// The oldest entry, `nil` when there is none.
    var oldest: (digest: DPoPReplayDigest, expiry: UInt32)? {
        count == 0 ? nil : (digests[head], expiries[head])
    }

    /// Forgets the oldest entry.
    mutating func removeOldest() {
        guard count > 0 else { return }
        head = (head + 1) % digests.count
        count -= 1
    }

    /// Appends an entry as the newest; `false` (nothing appended) when `limit` are held.
    mutating func append(_ digest: DPoPReplayDigest, expiry: UInt32) -> Bool {
        guard count < limit else { return false }
        if count == digests.count { grow() }
        let slot = (head + count) % digests.count
        digests[slot] = digest
        expiries[slot] = expiry
        count += 1
        return true
    }

    /// Doubles the slots (up to `limit`), the entries moved to the front in order.
    private mutating func grow() {
        let size = min(limit, max(16, digests.count * 2))
        let order = (0..<count).map { (head + $0) % max(1, digests.count) }
        var newDigests = [DPoPReplayDigest](repeating: DPoPReplayDigest(high: 0, low: 0), count: size)
        var newExpiries = [UInt32](repeating: 0, count: size)
        for (index, slot) in order.enumerated() {
            newDigests[index] = digests[slot]
            newExpiries[index] = expiries[slot]
        }
        digests = newDigests
        expiries = newExpiries
        head = 0
    }
}

extension DPoPReplayDigest {
    /// A digest of the given halves (the ring's empty slots).
    fileprivate init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }
}
