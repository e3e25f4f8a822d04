import Foundation

/// Runs the Python scripts under `Tests/Peers` that make vectors or play another library (joserfc, cbor2,
/// cryptography) for the SDK's and the server's tests: arguments in, standard input in, standard output back.
///
/// ```swift
/// let vectors = try await PythonScript.run("Tests/Peers/dpop/proofs.py", arguments: ["vectors"])
/// ```
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public enum PythonScript {
    /// The repository's root, found from this file (`Sources/LimenTestSupport/PythonScript.swift`).
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The script at `path`, relative to the repository's root.
    public static func url(_ path: String) -> URL {
        repositoryRoot.appendingPathComponent(path)
    }

    /// Runs python3 on the script at `path` (relative to the repository's root) with `arguments`, and `input` on its
    /// standard input; its standard output, or ``SubprocessError/failed(program:status:standardError:)`` with its
    /// standard error when it does not exit 0.
    public static func run(_ path: String, arguments: [String] = [], input: Data? = nil) async throws -> Data {
        try await Subprocess.run(
            URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", url(path).path] + arguments, input: input)
    }
}
