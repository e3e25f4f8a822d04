import Foundation
import LimenTestSupport
import LimenWire
import TestSupport

/// Python's joserfc, another JOSE library, driven through `Tests/Peers/joserfc/jwe.py`: one JSON request on standard
/// input, one JSON answer on standard output.
enum JoserfcPeer {
    /// Why the script cannot run, or `nil` when it can. Tests are skipped with this reason; `.ci/run` sets
    /// `LIMEN_REQUIRE_PEERS=1` so that a missing joserfc fails them instead.
    static let unavailableReason = Peers.missingPythonModules("joserfc", install: "pip install joserfc")

    /// Sends `request` to the script and returns its answer's members (none when the answer is not an object).
    static func run(_ request: [String: JSONValue]) async throws -> [String: JSONValue] {
        let output = try await PythonScript.run(
            "Tests/Peers/joserfc/jwe.py", input: Data(JSONValue.object(request).serialized()))
        return try JSONValue(parsing: output).objectValue ?? [:]
    }
}
