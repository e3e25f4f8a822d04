import Foundation

@testable import LimenServer
@testable import LimenServerCore

/// A fresh folder under the system's temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init() throws {
        path = (NSTemporaryDirectory() as NSString).appendingPathComponent("limen-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

extension ServerConfiguration {
    /// Loopback, the given port, data in `directory`, cheap password hashing, no rate limits (their own tests set
    /// them).
    static func testing(directory: TemporaryDirectory, port: Int = 8080) -> ServerConfiguration {
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: port, dataDirectory: directory.path, passwordHashing: .testing, postRateLimit: nil,
            signInRateLimit: nil, authorizeRateLimit: nil)
        // Hundreds of servers share two cores while the suite runs: a stand-in's answer may wait its turn.
        configuration.outboundTimeout = 60
        return configuration
    }
}

extension Data {
    /// Whether `needle` occurs anywhere in these bytes.
    func containsBytes(_ needle: Data) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return false }
        let haystack = [UInt8](self)
        let pattern = [UInt8](needle)
        for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
            if Array(haystack[start..<start + pattern.count]) == pattern { return true }
        }
        return false
    }
}
