import Foundation
import LimenServerWire

/// The resident memory a full ``DPoPReplayCache`` takes (issue 23): the process's RSS before and after admitting
/// `entries` proofs, per entry.
enum ReplayCacheMemory {
    /// Admits `entries` distinct proofs into a cache of that capacity and prints the RSS it added, as a Markdown row.
    static func measure(entries: Int) {
        let before = residentBytes()
        let cache = DPoPReplayCache(retention: 70, capacity: entries)
        let now = Date()
        let thumbprint = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
        for index in 0..<entries {
            guard cache.admit(jti: "jti-\(index)-9f6c2a7e", thumbprint: thumbprint, now: now) == .fresh else {
                FileHandle.standardError.write(Data("admission \(index) was not fresh\n".utf8))
                exit(1)
            }
        }
        let added = residentBytes() - before
        print(
            "| DPoP replay cache, \(entries) entries admitted (release build) | RSS +\(added >> 20) MiB = "
                + "\(added / entries) bytes an entry | ≤ ~32 MB for the default capacity | n/a |")
        withExtendedLifetime(cache) {}
    }

    /// The process's resident set size (`VmRSS` of `/proc/self/status`), in bytes; 0 where there is none.
    private static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return 0 }
        return kilobytes * 1024
    }
}
