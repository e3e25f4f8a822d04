import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension CLIRunner {
    /// The environment every `limen` run gets: this process's, with `LIMEN_CONFIG_DIR` set, plus `extra`.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LIMEN_CONFIG_DIR"] = configDirectory.path
        environment.merge(extra) { _, new in new }
        return environment
    }

    /// Starts `limen arguments…` with its standard error streamed line by line.
    func launch(_ arguments: [String], environment extra: [String: String] = [:]) throws -> RunningProcess {
        try Subprocess.start(try Self.executable(), arguments: arguments, environment: environment(extra))
    }

    /// Runs `limen arguments…` to its end.
    func complete(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> Subprocess.Result {
        try await launch(arguments, environment: extra).wait()
    }
}

extension Subprocess.Result {
    /// Standard output as text.
    var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard output without surrounding whitespace.
    var trimmedOutput: String { outputText.trimmingCharacters(in: .whitespacesAndNewlines) }
    /// Standard error split into non-empty lines.
    var errorLines: [String] { standardError.split(separator: "\n").map(String.init) }
}

extension RunningProcess {
    /// The first standard error line `predicate` accepts, or `nil` when standard error ends first.
    func firstErrorLine(where predicate: (String) -> Bool) async -> String? {
        for await line in errorLines where predicate(line) { return line }
        return nil
    }
}

/// Loopback ports.
enum LoopbackPort {
    /// The first of `candidates` that nothing on 127.0.0.1 listens on right now.
    static func firstFree(among candidates: [UInt16]) -> UInt16? {
        candidates.first(where: isFree)
    }

    private static func isFree(_ port: UInt16) -> Bool {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
