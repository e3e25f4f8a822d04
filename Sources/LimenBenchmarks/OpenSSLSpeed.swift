import Foundation

/// Verifications per second that `openssl speed` measures for the algorithms ID tokens use.
struct OpenSSLSpeed {
    var rsa2048: Double?
    var ecdsaP256: Double?
    var ed25519: Double?
    /// The `openssl version` line, or why it could not run.
    var version: String

    /// Runs `openssl speed -seconds 1 rsa2048 ecdsap256 ed25519` and reads the `verify/s` columns.
    static func measure() -> OpenSSLSpeed {
        let version = run(["version"]).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let output = run(["speed", "-seconds", "1", "rsa2048", "ecdsap256", "ed25519"]) else {
            return OpenSSLSpeed(version: version ?? "openssl did not run")
        }
        var speed = OpenSSLSpeed(version: version ?? "unknown")
        var header: [Substring] = []
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.contains("verify/s") {
                header = fields
                continue
            }
            guard let column = header.firstIndex(of: "verify/s"), fields.count >= header.count else { continue }
            let value = Double(fields[fields.count - header.count + column])
            if line.hasPrefix("rsa 2048 bits") {
                speed.rsa2048 = value
            } else if line.contains("ecdsa (nistp256)") {
                speed.ecdsaP256 = value
            } else if line.contains("EdDSA (Ed25519)") {
                speed.ed25519 = value
            }
        }
        return speed
    }

    private static func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
