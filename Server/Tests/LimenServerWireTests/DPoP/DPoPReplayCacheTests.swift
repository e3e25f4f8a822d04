import Foundation
import LimenServerWire
import LimenWire
import Testing

@Suite("The DPoP replay cache: a jti once per window, forgotten after it, and a bounded size")
struct DPoPReplayCacheTests {
    let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test("a jti admitted once is refused as a replay while its window lasts")
    func replay() {
        let cache = DPoPReplayCache(retention: 360)
        #expect(cache.admit(jti: "jti-1", thumbprint: "key-a", now: start) == .fresh)
        #expect(cache.admit(jti: "jti-1", thumbprint: "key-a", now: start) == .replayed)
        #expect(cache.admit(jti: "jti-1", thumbprint: "key-a", now: start.addingTimeInterval(359)) == .replayed)
        #expect(cache.admit(jti: "jti-2", thumbprint: "key-a", now: start) == .fresh)
        #expect(cache.admit(jti: "jti-1", thumbprint: "key-b", now: start) == .fresh)
    }

    @Test("a verified proof is admitted by its key's thumbprint and jti")
    func verifiedProof() {
        let cache = DPoPReplayCache(window: DPoPVerifier.IssuedAtWindow())
        #expect(cache.retention == 70)
        let proof = VerifiedDPoPProof(
            thumbprint: "key-a", jti: "jti-1", issuedAt: start, algorithm: .es256, publicKey: .init(parameters: [:]))
        #expect(cache.admit(proof, now: start) == .fresh)
        #expect(cache.admit(proof, now: start.addingTimeInterval(1)) == .replayed)
    }

    @Test("a jti is forgotten once its window has passed")
    func expiry() {
        let cache = DPoPReplayCache(retention: 360)
        #expect(cache.admit(jti: "jti-1", thumbprint: "key-a", now: start) == .fresh)
        #expect(cache.admit(jti: "jti-2", thumbprint: "key-a", now: start.addingTimeInterval(100)) == .fresh)
        #expect(cache.admit(jti: "jti-3", thumbprint: "key-a", now: start.addingTimeInterval(360)) == .fresh)
        #expect(cache.count == 2)
        #expect(cache.admit(jti: "jti-1", thumbprint: "key-a", now: start.addingTimeInterval(361)) == .fresh)
        #expect(cache.admit(jti: "jti-2", thumbprint: "key-a", now: start.addingTimeInterval(361)) == .replayed)
    }

    @Test("a full cache refuses new jtis rather than forget live ones, and makes room as they expire")
    func bounded() {
        let cache = DPoPReplayCache(retention: 60, capacity: 3)
        for index in 0..<3 {
            #expect(
                cache.admit(jti: "jti-\(index)", thumbprint: "key", now: start.addingTimeInterval(Double(index)))
                    == .fresh)
        }
        #expect(cache.admit(jti: "flood", thumbprint: "key", now: start.addingTimeInterval(10)) == .full)
        #expect(cache.count == 3)
        // The live entries are still refused as replays: a flood did not push them out.
        #expect(cache.admit(jti: "jti-0", thumbprint: "key", now: start.addingTimeInterval(10)) == .replayed)
        // jti-0 expires at start + 60: the oldest makes room first.
        #expect(cache.admit(jti: "flood", thumbprint: "key", now: start.addingTimeInterval(60)) == .fresh)
        #expect(cache.admit(jti: "flood-2", thumbprint: "key", now: start.addingTimeInterval(60)) == .full)
        #expect(cache.count == 3)
    }

    @Test("a jti is remembered up to its window's edge, fractions of a second included, and forgotten at it")
    func windowEdge() {
        let window = DPoPVerifier.IssuedAtWindow()
        let cache = DPoPReplayCache(window: window)
        let admitted = start.addingTimeInterval(0.25)
        #expect(cache.admit(jti: "jti-1", thumbprint: "key-a", now: admitted) == .fresh)
        // The proof could still be accepted until admitted + span: its replay is refused until then.
        for elapsed in [1.0, window.span - 1, window.span - 0.001, window.span] {
            #expect(
                cache.admit(jti: "jti-1", thumbprint: "key-a", now: admitted.addingTimeInterval(elapsed)) == .replayed)
        }
        // Expiries are whole seconds rounded up: forgotten at the next whole second after the window, not before.
        #expect(
            cache.admit(jti: "jti-1", thumbprint: "key-a", now: start.addingTimeInterval(window.span + 1)) == .fresh)
    }

    @Test("a full cache answers full, then admits again once its entries expire")
    func fullThenFreshAgain() {
        let cache = DPoPReplayCache(retention: 70, capacity: 1_000)
        for index in 0..<1_000 {
            #expect(cache.admit(jti: "jti-\(index)", thumbprint: "key", now: start) == .fresh)
        }
        #expect(cache.admit(jti: "late", thumbprint: "key", now: start.addingTimeInterval(69)) == .full)
        #expect(cache.admit(jti: "jti-999", thumbprint: "key", now: start.addingTimeInterval(69)) == .replayed)
        #expect(cache.admit(jti: "late", thumbprint: "key", now: start.addingTimeInterval(70)) == .fresh)
        #expect(cache.count == 1)
        // The ring that holds the order wraps around its slots as entries come and go.
        for index in 0..<999 {
            #expect(cache.admit(jti: "again-\(index)", thumbprint: "key", now: start.addingTimeInterval(71)) == .fresh)
        }
        #expect(cache.admit(jti: "one-too-many", thumbprint: "key", now: start.addingTimeInterval(71)) == .full)
        #expect(cache.admit(jti: "late", thumbprint: "key", now: start.addingTimeInterval(139)) == .replayed)
        #expect(cache.admit(jti: "again-0", thumbprint: "key", now: start.addingTimeInterval(140)) == .replayed)
        #expect(cache.admit(jti: "late", thumbprint: "key", now: start.addingTimeInterval(140)) == .fresh)
    }

    @Test(
        "entries are digests of the key and the jti apart: one jti under two keys, or split differently, stays distinct",
        arguments: [("key-a", "jti", "key-b", "jti"), ("ab", "c", "a", "bc"), ("key", "jti", "key", "jti\u{0}")]
            as [(String, String, String, String)]
    )
    func digestsKeepPairsApart(firstKey: String, firstJTI: String, secondKey: String, secondJTI: String) {
        let cache = DPoPReplayCache(retention: 70)
        #expect(cache.admit(jti: firstJTI, thumbprint: firstKey, now: start) == .fresh)
        #expect(cache.admit(jti: secondJTI, thumbprint: secondKey, now: start) == .fresh)
        #expect(cache.admit(jti: firstJTI, thumbprint: firstKey, now: start) == .replayed)
        #expect(cache.admit(jti: secondJTI, thumbprint: secondKey, now: start) == .replayed)
    }

    @Test("the default window and capacity let a node take at least 8,000 proofs a second")
    func defaultCap() {
        let window = DPoPVerifier.IssuedAtWindow()
        #expect(window.past == 60 && window.future == 10)
        #expect(Double(DPoPReplayCache.defaultCapacity) / window.span >= 8_000)
    }

    @Test("many admissions over many windows keep the cache within its capacity")
    func sizeHolds() {
        let cache = DPoPReplayCache(retention: 10, capacity: 100)
        var full = 0
        for index in 0..<10_000 {
            let now = start.addingTimeInterval(Double(index) / 20)
            if cache.admit(jti: "jti-\(index)", thumbprint: "key", now: now) == .full { full += 1 }
            #expect(cache.count <= 100)
        }
        // 20 admissions a second for 10 s is 200 live entries: half are refused, none grows the cache.
        #expect(full > 0)
    }

    @Test("admissions from many tasks at once each see one answer: one fresh per jti")
    func concurrent() async {
        let cache = DPoPReplayCache(retention: 60)
        let start = self.start
        let fresh = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<200).filter { cache.admit(jti: "jti-\($0)", thumbprint: "key", now: start) == .fresh }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(fresh == 200)
        #expect(cache.count == 200)
    }
}
