import Foundation
import LimenTestSupport

/// nginx terminating TLS on 127.0.0.1 with a leaf of ``CertificateChains`` (and the chains' intermediate), in front of
/// a plain HTTP server: a real TLS server for the transports' and the CLI's pinning tests.
public enum TLSProxy {
    /// Starts nginx on `port` (a free one by default) presenting `leaf`, forwarding to 127.0.0.1:`upstreamPort`, runs
    /// `body` with its port, and stops it however `body` ends.
    public static func with<Result>(
        presenting leaf: CertificateChains.Issued,
        of chains: CertificateChains,
        port: Int? = nil,
        upstreamPort: Int,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("limen-tls-proxy-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = NginxProxy.TLSFiles(
            certificateChain: directory.appendingPathComponent("chain.pem").path,
            key: directory.appendingPathComponent("leaf.key").path)
        try Data((leaf.pem + chains.intermediate.pem).utf8).write(to: URL(fileURLWithPath: files.certificateChain))
        try Data(leaf.keyPEM.utf8).write(to: URL(fileURLWithPath: files.key))
        let chosen = try port ?? FreePort.find()
        let nginx = try await NginxProxy.start(
            port: chosen, upstreamPorts: [upstreamPort], directory: directory.path, tls: files)
        return try await withStopping(nginx, stop: { _ = await $0.stop() }, { _ in try await body(chosen) })
    }
}
