import Foundation
import LimenTestSupport
import TestSupport
import Testing

/// `limen login --pin … --ca-file …` against the `limen-server` binary behind nginx with TLS, presenting the openssl-made
/// chains: the CLI's requests go through the NIO transport, which checks the pins on Linux.
@Suite(
    "limen login --pin against Limen Server behind TLS",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil && NginxProxy.unavailableReason == nil,
        "limen-server is not built or nginx is missing")
)
struct PinningCLITests {
    @Test(
        "the right pins sign in and guard every later command; wrong pins fail naming the host; the backup pin passes after the leaf's rotation"
    )
    func pinnedLogin() async throws {
        let chains = try await CertificateChains.shared()
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let caFile = cli.configDirectory.appendingPathComponent("test-root.pem")
        try Data(chains.root.pem.utf8).write(to: caFile)
        let proxyPort = try FreePort.find()
        let serverPort = try FreePort.find()
        let issuer = "https://localhost:\(proxyPort)"
        func login(pins: [String], caFile: URL? = caFile, profile: String = "default") async throws
            -> Subprocess.Result
        {
            try await cli.complete(
                ["login", "--anonymous", "--issuer", issuer, "--client-id", "limen-cli", "--profile", profile]
                    + pins.flatMap { ["--pin", "sha256/\($0)"] } + (caFile.map { ["--ca-file", $0.path] } ?? []))
        }
        let unusedPin = Data(repeating: 0xB0, count: 32).base64EncodedString()
        let settings = ["--issuer", issuer, "--sign-in-rate-limit", "100/s"]
        try await LimenServerPeer.with(port: serverPort, settings: settings) { _ in
            try await TLSProxy.with(presenting: chains.leaf, of: chains, port: proxyPort, upstreamPort: serverPort) {
                _ in
                let wrong = try await login(pins: [chains.other.pin, chains.backup.pin])
                #expect(wrong.status != 0)
                #expect(
                    wrong.errorLines.contains { $0.hasPrefix("error: pinning_failed: ") && $0.contains("localhost") },
                    "\(wrong.standardError)")

                let untrusted = try await login(pins: [chains.leaf.pin, chains.backup.pin], caFile: nil)
                #expect(untrusted.status != 0)
                #expect(untrusted.standardError.contains("certificate not trusted"), "\(untrusted.standardError)")

                let tooFew = try await login(pins: [chains.leaf.pin])
                #expect(tooFew.errorLines.contains { $0.hasPrefix("error: configuration.too_few_pins: ") })

                let right = try await login(pins: [chains.leaf.pin, chains.backup.pin])
                #expect(right.status == 0, "\(right.standardError)")
                let whoami = try await cli.complete(["whoami"])
                #expect(whoami.status == 0, "\(whoami.standardError)")
                let strict = try await login(pins: [chains.leaf.pin, unusedPin], profile: "strict")
                #expect(strict.status == 0, "\(strict.standardError)")
            }
            try await TLSProxy.with(presenting: chains.backup, of: chains, port: proxyPort, upstreamPort: serverPort) {
                _ in
                let refresh = try await cli.complete(["token", "--min-ttl", "999999999"])
                #expect(refresh.status == 0, "the backup pin: \(refresh.standardError)")
                #expect(!refresh.trimmedOutput.isEmpty)
                let refused = try await cli.complete(["token", "--min-ttl", "999999999", "--profile", "strict"])
                #expect(refused.status != 0, "a profile without the backup pin refuses the rotated key")
                #expect(
                    refused.errorLines.contains { $0.hasPrefix("error: pinning_failed: ") }, "\(refused.standardError)")
            }
        }
    }
}
