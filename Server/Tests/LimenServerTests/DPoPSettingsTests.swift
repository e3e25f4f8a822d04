import Crypto
import Foundation
import LimenServerWire
import LimenTestSupport
import LimenWire
import Logging
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("DPoP settings: the proofs' window and the replay cache's size, checked at start")
struct DPoPSettingsTests {
    @Test("by default proofs may be 60 s old and a node remembers 700,000 of them")
    func defaults() throws {
        let configuration = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: [:])
        #expect(configuration.dpopProofMaxAge == 60)
        #expect(configuration.dpopReplayCacheSize == 700_000)
    }

    @Test("both are read from flags over variables")
    func layered() throws {
        let environment = ["LIMEN_DPOP_PROOF_MAX_AGE": "2m", "LIMEN_DPOP_REPLAY_CACHE_SIZE": "50000"]
        let fromEnvironment = try ServerConfiguration.resolve(flags: ConfigurationFlags(), environment: environment)
        #expect(fromEnvironment.dpopProofMaxAge == 120)
        #expect(fromEnvironment.dpopReplayCacheSize == 50_000)
        let flags = ConfigurationFlags(["--dpop-proof-max-age": "30s", "--dpop-replay-cache-size": "2000000"])
        let fromFlags = try ServerConfiguration.resolve(flags: flags, environment: environment)
        #expect(fromFlags.dpopProofMaxAge == 30)
        #expect(fromFlags.dpopReplayCacheSize == 2_000_000)
    }

    @Test(
        "a window or size out of bounds, or not a number, is refused at start naming its key",
        arguments: [
            (ConfigurationFlags(["--dpop-proof-max-age": "9s"]), [:], "--dpop-proof-max-age"),
            (ConfigurationFlags(["--dpop-proof-max-age": "301"]), [:], "--dpop-proof-max-age"),
            (ConfigurationFlags(), ["LIMEN_DPOP_PROOF_MAX_AGE": "a minute"], "LIMEN_DPOP_PROOF_MAX_AGE"),
            (ConfigurationFlags(["--dpop-replay-cache-size": "999"]), [:], "--dpop-replay-cache-size"),
            (ConfigurationFlags(["--dpop-replay-cache-size": "20000001"]), [:], "--dpop-replay-cache-size"),
            (ConfigurationFlags(), ["LIMEN_DPOP_REPLAY_CACHE_SIZE": "-5"], "LIMEN_DPOP_REPLAY_CACHE_SIZE"),
            (ConfigurationFlags(), ["LIMEN_DPOP_REPLAY_CACHE_SIZE": "1e6"], "LIMEN_DPOP_REPLAY_CACHE_SIZE"),
        ] as [(ConfigurationFlags, [String: String], String)]
    )
    func refused(flags: ConfigurationFlags, environment: [String: String], key: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(flags: flags, environment: environment)
        }
        #expect(error?.key == key)
    }

    @Test("a full cache refuses with 503 and logs the setting to raise, at most once a minute, without the jti")
    func fullCacheWarning() async throws {
        let recorded = RecordedLines()
        let checker = DPoPProofChecker(
            replays: DPoPReplayCache(retention: 70, capacity: 1),
            fullWarning: DPoPReplayCacheWarning(logger: recorded.logger, interval: 60))
        let maker = DPoPProofMaker(privateKey: P256.Signing.PrivateKey())
        let url = "https://id.example.com/token"
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func check(after seconds: TimeInterval) async throws -> VerifiedDPoPProof? {
            let now = start.addingTimeInterval(seconds)
            let proof = try maker.proof(method: "POST", url: URL(string: url)!, now: now)
            return try await checker.check([proof], method: "POST", url: url, now: now)
        }
        let first = try #require(try await check(after: 0))
        for seconds in [1.0, 30, 59, 61] {
            await #expect(throws: DPoPRefusal.replayCacheFull) { try await check(after: seconds) }
        }
        let lines = recorded.lines.withLock { $0 }
        #expect(lines.count == 2)  // at 1 s and at 61 s
        let line = try #require(lines.first)
        #expect(line.message.contains("dpop_replay_cache_size"))
        #expect(line.metadata["setting"] == "dpop_replay_cache_size")
        #expect(line.metadata["capacity"] == "1")
        #expect(!"\(line.message) \(line.metadata)".contains(first.jti))
    }
}
