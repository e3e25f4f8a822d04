import Foundation
import LimenTestSupport

/// `Tests/Peers/webauthn/vectors.py`: CBOR and WebAuthn vectors made by Python's cbor2 and cryptography, the
/// well-kept implementations the WebAuthn wire layer is compared with.
enum PythonVectors {
    /// Why the script cannot run here (cbor2 or cryptography missing); `nil` when it can, and always when peers are
    /// required (the tests then fail, saying what is missing).
    static let unavailableReason = Peers.missingPythonModules(
        "cbor2, cryptography", install: "python3 -m pip install cbor2 cryptography")

    /// Runs the script with `arguments` and decodes the JSON it prints.
    static func run<Output: Decodable>(_ arguments: [String], as type: Output.Type) async throws -> Output {
        let output = try await PythonScript.run("Tests/Peers/webauthn/vectors.py", arguments: arguments)
        return try JSONDecoder().decode(Output.self, from: output)
    }
}
