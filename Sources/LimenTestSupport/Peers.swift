import Foundation

/// Whether the tests' peers (glewlwyd, PostgreSQL, nginx, Python scripts, the `limen-server` binary) must run, and why
/// one cannot.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public enum Peers {
    /// Whether `LIMEN_REQUIRE_PEERS=1` (`.ci/run` sets it): a missing peer must fail its test rather than skip it.
    public static var areRequired: Bool {
        ProcessInfo.processInfo.environment["LIMEN_REQUIRE_PEERS"] == "1"
    }

    /// Why python3 cannot import `modules` (comma-separated), with `install` saying how to fix it; `nil` when it can,
    /// and always `nil` when peers ``areRequired`` (the test then runs and fails, saying what is missing).
    ///
    /// Blocks until `python3 -c "import …"` ends: meant for a `static let` read by a test's `.disabled(if:)` trait.
    public static func missingPythonModules(_ modules: String, install: String) -> String? {
        if areRequired { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(modules)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? ProcessStart.run(process)) != nil else { return "python3 is not installed" }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "python3 cannot import \(modules): \(install)"
    }
}
