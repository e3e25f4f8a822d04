import Foundation
import Limen
import LimenTestSupport
import TestSupport
import Testing

@Suite("Certificate pinning")
struct CertificatePinningTests {
    static let host = "id.example.test"
    static let connected = Date(timeIntervalSince1970: 1_800_000_000)
    /// A pin of no certificate here, standing for the backup key kept offline.
    static let backup = Data(repeating: 0xB0, count: 32).base64EncodedString()

    static func pinning(_ pin: String, mode: PinningMode = .enforce, expires: Date? = nil) throws -> CertificatePinning
    {
        try CertificatePinning([PinnedHost(host, pins: [pin, backup], expires: expires, mode: mode)])
    }

    /// The verdict on `chain` presented by ``host`` at ``connected``, its pins `pin` and ``backup``.
    static func verdict(_ chain: [Data], pinning pin: String, mode: PinningMode = .enforce) throws -> PinningVerdict {
        try pinning(pin, mode: mode).evaluate(host: host, chain: chain, at: connected)
    }

    @Test("each certificate's pin is the one OpenSSL's pipeline prints, for RSA, P-384, P-256 and Ed25519 keys")
    func pinsMatchOpenSSL() async throws {
        let chains = try await CertificateChains.shared()
        for issued in [chains.root, chains.intermediate, chains.leaf, chains.rotated, chains.other] {
            #expect(SPKIPin(certificate: issued.der)?.base64 == issued.pin)
        }
    }

    @Test("a chain matches by the pin of its leaf, its intermediate or its root")
    func matchesAnyCertificateOfTheChain() async throws {
        let chains = try await CertificateChains.shared()
        for pinned in [chains.leaf, chains.intermediate, chains.root] {
            #expect(try Self.verdict(chains.leafChain, pinning: pinned.pin) == .matched)
        }
    }

    @Test("a leaf renewed with the same key still matches the leaf's pin")
    func rotatedLeafKeepingItsKeyMatches() async throws {
        let chains = try await CertificateChains.shared()
        #expect(try Self.verdict(chains.rotatedChain, pinning: chains.leaf.pin) == .matched)
    }

    @Test("a key nobody pinned is refused when enforced, naming the host and the keys presented")
    func unpinnedKeyRefused() async throws {
        let chains = try await CertificateChains.shared()
        let verdict = try Self.verdict([chains.other.der], pinning: chains.leaf.pin)
        let presented = [try SPKIPin(chains.other.pin)]
        #expect(verdict == .refused(PinningFailure(host: Self.host, mode: .enforce, presentedPins: presented)))
    }

    @Test("a key nobody pinned is only reported in reportOnly mode")
    func unpinnedKeyReported() async throws {
        let chains = try await CertificateChains.shared()
        let verdict = try Self.verdict(chains.otherChain, pinning: chains.leaf.pin, mode: .reportOnly)
        let presented = try [chains.other.pin, chains.intermediate.pin, chains.root.pin].map(SPKIPin.init)
        #expect(verdict == .reported(PinningFailure(host: Self.host, mode: .reportOnly, presentedPins: presented)))
    }

    @Test("pins are enforced until they expire, and not from then on")
    func expiredPinsAreNotEnforced() async throws {
        let chains = try await CertificateChains.shared()
        let pinning = try Self.pinning(chains.leaf.pin, expires: Self.connected)
        let before = pinning.evaluate(
            host: Self.host, chain: chains.otherChain, at: Self.connected.addingTimeInterval(-1))
        #expect(before != .expired && before != .matched)
        #expect(pinning.evaluate(host: Self.host, chain: chains.otherChain, at: Self.connected) == .expired)
    }

    @Test("a host without pins is not checked, and a subdomain is not covered by its parent's pins")
    func unpinnedHostPasses() async throws {
        let chains = try await CertificateChains.shared()
        let pinning = try Self.pinning(chains.leaf.pin)
        for host in ["other.example.test", "api.id.example.test", "example.test"] {
            #expect(pinning.evaluate(host: host, chain: chains.otherChain, at: Self.connected) == .notPinned)
        }
    }

    @Test("the host matches ignoring letter case and a final dot")
    func hostMatchIgnoresCase() async throws {
        let chains = try await CertificateChains.shared()
        let pinning = try CertificatePinning([
            PinnedHost("ID.Example.TEST.", pins: [chains.leaf.pin, Self.backup])
        ])
        #expect(pinning.hosts.map(\.host) == [Self.host])
        #expect(pinning.evaluate(host: "Id.EXAMPLE.test", chain: chains.leafChain, at: Self.connected) == .matched)
        #expect(pinning.evaluate(host: "id.example.test.", chain: chains.leafChain, at: Self.connected) == .matched)
    }

    @Test("certificates that are not DER are refused without a crash")
    func garbageIsRefused() async throws {
        let chains = try await CertificateChains.shared()
        let truncated = chains.leaf.der.prefix(chains.leaf.der.count / 2)
        let garbage: [[Data]] = [
            [], [Data()], [Data("not a certificate".utf8)], [Data(truncated)],
            [Data(repeating: 0x30, count: 4096)], [Data([0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF])],
        ]
        for chain in garbage {
            let verdict = try Self.verdict(chain, pinning: chains.leaf.pin)
            #expect(verdict == .refused(PinningFailure(host: Self.host, mode: .enforce, presentedPins: [])))
            #expect(SPKIPin(certificate: chain.first ?? Data()) == nil)
        }
    }

    @Test("the evaluator reports refused and reported mismatches and fails only the refused")
    func evaluatorReports() async throws {
        let chains = try await CertificateChains.shared()
        let reports = Locked<[PinningFailure]>([])
        for mode in [PinningMode.enforce, .reportOnly] {
            let evaluator = PinningEvaluator(
                pinning: try Self.pinning(chains.leaf.pin, mode: mode), now: { Self.connected },
                report: { failure in reports.withLock { $0.append(failure) } })
            #expect(evaluator.isPinned(Self.host))
            #expect(evaluator.check(host: Self.host, chain: chains.rotatedChain) == nil)
            let refusal = evaluator.check(host: Self.host, chain: chains.otherChain)
            #expect(refusal == (mode == .enforce ? .pinningFailed(host: Self.host) : nil))
        }
        #expect(reports.withLock { $0.map(\.mode) } == [.enforce, .reportOnly])
    }
}
