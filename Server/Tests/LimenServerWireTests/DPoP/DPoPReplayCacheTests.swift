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
        #expect(cache.retention == 360)
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
