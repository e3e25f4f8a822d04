import Foundation

/// Whether the Python peers' modules are installed.
public enum PythonModules {
    /// Why python3 cannot import `modules` (comma-separated), with `install` saying how to fix it; `nil` when it can,
    /// or when `LIMEN_REQUIRE_PEERS=1` (CI), where a missing module must fail its test rather than skip it.
    public static func missingReason(_ modules: String, install: String) -> String? {
        if ProcessInfo.processInfo.environment["LIMEN_REQUIRE_PEERS"] == "1" { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(modules)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "python3 is not installed" }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "python3 cannot import \(modules): \(install)"
    }
}
