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
/// ring of at most `limit` slots, 20 bytes an entry. Its storage is reserved for `limit` at once and filled in place
/// (pages become resident only as they are written), so it is never copied to grow.
struct DPoPReplayEntries {
    /// The most entries held.
    let limit: Int
    private var digests: [DPoPReplayDigest] = []
    private var expiries: [UInt32] = []
    /// The slot of the oldest entry. Until every slot has been used, the entries are the slots from `head` to the end.
    private var head = 0
    /// How many entries are held.
    private(set) var count = 0

    /// An empty ring of at most `limit` entries.
    init(limit: Int) {
        self.limit = limit
        digests.reserveCapacity(limit)
        expiries.reserveCapacity(limit)
    }

    /// The oldest entry, `nil` when there is none.
    var oldest: (digest: DPoPReplayDigest, expiry: UInt32)? {
        count == 0 ? nil : (digests[head], expiries[head])
    }

    /// Forgets the oldest entry.
    mutating func removeOldest() {
        guard count > 0 else { return }
        count -= 1
        guard count > 0 else {
            // Empty: start again from the first slot, keeping the storage.
            digests.removeAll(keepingCapacity: true)
            expiries.removeAll(keepingCapacity: true)
            head = 0
            return
        }
        head = (head + 1) % digests.count
    }

    /// Appends an entry as the newest; `false` (nothing appended) when `limit` are held.
    mutating func append(_ digest: DPoPReplayDigest, expiry: UInt32) -> Bool {
        guard count < limit else { return false }
        if digests.count < limit {
            digests.append(digest)
            expiries.append(expiry)
        } else {
            let slot = (head + count) % limit
            digests[slot] = digest
            expiries[slot] = expiry
        }
        count += 1
        return true
    }
}
