import Foundation

// Limen Server micro-benchmarks (issue 23 §7): `swift run -c release LimenServerBenchmarks` from Server/. Not a test
// target, so neither `swift test` nor CI runs it. BENCH_DURATION (seconds, default 10) is how long the two checks
// alternate. Prints a Markdown table for BENCHMARKS.md on standard output.

// BENCH_ONLY=dpop-memory measures the DPoP replay cache's memory instead (BENCH_ENTRIES entries, default 1,000,000).
if ProcessInfo.processInfo.environment["BENCH_ONLY"] == "dpop-memory" {
    ReplayCacheMemory.measure(
        entries: ProcessInfo.processInfo.environment["BENCH_ENTRIES"].flatMap(Int.init) ?? 1_000_000)
    exit(0)
}

let seconds = ProcessInfo.processInfo.environment["BENCH_DURATION"].flatMap(Int.init) ?? 10
let fixture = try AssertionFixture()
FileHandle.standardError.write(Data("… passkey assertion check vs bare P-256 verify, \(seconds) s\n".utf8))
let timing = try InterleavedTiming(duration: .seconds(seconds)).run(fixture.bareCheck, fixture.serverCheck)
let ratio = timing.second / timing.first

print("| Measure | Result | Goal | Met |")
print("|---|---|---|---|")
print(
    String(
        format:
            "| bare swift-crypto `P256.Signing.PublicKey.isValidSignature` (DER signature read), median of %d batches | %.1f µs (%.0f/s) | — | n/a |",
        timing.rounds, timing.first / 1e3, 1e9 / timing.first))
print(
    String(
        format:
            "| passkey assertion check as the server does it (`AuthenticationResponseJSON`, `ClientData` read + check, COSE key read, `AssertionVerification.verify`) | %.1f µs (%.0f/s) = %.2f× the bare verify | ≤ 1.2× | %@ |",
        timing.second / 1e3, 1e9 / timing.second, ratio, ratio <= 1.2 ? "yes" : "**no**"))
