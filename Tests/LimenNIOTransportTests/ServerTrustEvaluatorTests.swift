import Foundation
import Limen
import LimenWire
import TestSupport
import Testing
import X509

@testable import LimenNIOTransport

@Suite("The NIO transport's trust evaluation")
struct ServerTrustEvaluatorTests {
    static let host = "id.example.test"

    /// An evaluator trusting the test root (unless `trustingRoot` is false), enforcing `pins` for `host` when given.
    static func evaluator(trustingRoot: Bool = true, pins: [String]? = nil) async throws -> ServerTrustEvaluator {
        let chains = try await CertificateChains.shared()
        let roots = trustingRoot ? [try Certificate(derEncoded: Array(chains.root.der))] : []
        let pinning = try pins.map { pins in
            PinningEvaluator(pinning: try CertificatePinning([PinnedHost(host, pins: pins)]))
        }
        return ServerTrustEvaluator(roots: CertificateStore(roots), pinning: pinning)
    }

    @Test("a chain to a trusted root that names the host is trusted, by name and by address")
    func trustedChain() async throws {
        let chains = try await CertificateChains.shared()
        let evaluator = try await Self.evaluator()
        #expect(await evaluator.evaluate(host: Self.host, presented: chains.leafChain) == .trusted)
        #expect(await evaluator.evaluate(host: "127.0.0.1", presented: chains.leafChain) == .trusted)
        let withoutRoot = [chains.leaf.der, chains.intermediate.der]
        #expect(await evaluator.evaluate(host: Self.host, presented: withoutRoot) == .trusted)
    }

    @Test(
        "an unknown root, another host's certificate or a missing intermediate is untrusted",
        arguments: [
            ("unknown root", "id.example.test", false, true),
            ("another host", "evil.example.test", true, true),
            ("no intermediate", "id.example.test", true, false),
        ])
    func untrusted(case name: String, host: String, trustingRoot: Bool, withIntermediate: Bool) async throws {
        let chains = try await CertificateChains.shared()
        let evaluator = try await Self.evaluator(trustingRoot: trustingRoot)
        let presented = withIntermediate ? chains.leafChain : [chains.leaf.der]
        let verdict = await evaluator.evaluate(host: host, presented: presented)
        guard case .untrusted = verdict else {
            Issue.record("\(name): \(verdict)")
            return
        }
    }

    @Test("no readable certificate is untrusted")
    func unreadable() async throws {
        let evaluator = try await Self.evaluator()
        #expect(
            await evaluator.evaluate(host: Self.host, presented: [])
                == .untrusted("the server presented no readable certificate"))
        #expect(
            await evaluator.evaluate(host: Self.host, presented: [Data("not DER".utf8)])
                == .untrusted("the server presented no readable certificate"))
    }

    @Test("a pin on the leaf, the intermediate or the root of the built chain is a match")
    func pinMatches() async throws {
        let chains = try await CertificateChains.shared()
        for pinned in [chains.leaf, chains.intermediate, chains.root] {
            let evaluator = try await Self.evaluator(pins: [pinned.pin, chains.backup.pin])
            #expect(await evaluator.evaluate(host: Self.host, presented: chains.leafChain) == .trusted)
        }
        let backup = try await Self.evaluator(pins: [chains.leaf.pin, chains.backup.pin])
        let rotated = [chains.backup.der, chains.intermediate.der]
        #expect(await backup.evaluate(host: Self.host, presented: rotated) == .trusted, "the backup key after rotation")
    }

    @Test("a trusted chain whose keys match no pin is refused, naming the host")
    func pinMismatch() async throws {
        let chains = try await CertificateChains.shared()
        let evaluator = try await Self.evaluator(pins: [chains.other.pin, chains.backup.pin])
        #expect(
            await evaluator.evaluate(host: Self.host, presented: chains.leafChain)
                == .pinningRefused(.pinningFailed(host: Self.host)))
    }

    @Test("a pinned certificate the server adds to its chain but the built chain does not use matches nothing")
    func appendedCertificateIsNotTrusted() async throws {
        let chains = try await CertificateChains.shared()
        let evaluator = try await Self.evaluator(pins: [chains.other.pin, chains.backup.pin])
        let presented = chains.leafChain + [chains.other.der]
        #expect(
            await evaluator.evaluate(host: Self.host, presented: presented)
                == .pinningRefused(.pinningFailed(host: Self.host)))
    }
}
