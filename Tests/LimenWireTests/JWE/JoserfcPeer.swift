import Foundation
import LimenWire
import TestSupport

/// Python's joserfc, another JOSE library, driven through `Tests/Peers/joserfc/jwe.py`: one JSON request on standard
/// input, one JSON answer on standard output.
enum JoserfcPeer {
    /// `Tests/Peers/joserfc/jwe.py` in the repository.
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Peers/joserfc/jwe.py")

    /// Why the script cannot run, or `nil` when it can. Tests are skipped with this reason; `.ci/run` sets
    /// `LIMEN_REQUIRE_PEERS=1` so that a missing joserfc fails them instead.
    static let unavailableReason = PythonModules.missingReason("joserfc", install: "pip install joserfc")

    /// Sends `request` to the script and returns its answer's members (none when the answer is not an object).
    static func run(_ request: [String: JSONValue]) async throws -> [String: JSONValue] {
        let output = try await Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", script.path],
            input: Data(JSONValue.object(request).serialized()))
        return try JSONValue(parsing: output).objectValue ?? [:]
    }
}
