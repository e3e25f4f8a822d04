import Foundation
import LimenTestSupport

/// A script in `Tests/Peers/<peer>/vectors.py` that makes vectors with well-kept Python libraries for these tests to
/// compare with: `webAuthn` (cbor2 and cryptography, for the WebAuthn wire layer) and `oneTimePasswords` (pyotp and
/// base64, for TOTP, otpauth URIs and base32).
struct PythonVectors: Sendable {
    /// `Tests/Peers/webauthn/vectors.py`: CBOR and WebAuthn vectors made by Python's cbor2 and cryptography.
    static let webAuthn = PythonVectors(
        peer: "webauthn", modules: "cbor2, cryptography", install: "python3 -m pip install cbor2 cryptography")
    /// `Tests/Peers/totp/vectors.py`: TOTP codes, provisioning URIs read back, and base32, made by pyotp and base64.
    static let oneTimePasswords = PythonVectors(peer: "totp", modules: "pyotp", install: "python3 -m pip install pyotp")

    /// The script's path from the repository's root.
    let script: String
    /// Why the script cannot run here (a module missing); `nil` when it can, and always when peers are required (the
    /// tests then fail, saying what is missing).
    let unavailableReason: String?

    /// The script of `Tests/Peers/<peer>`, which imports `modules` (comma-separated), installed by `install`.
    init(peer: String, modules: String, install: String) {
        script = "Tests/Peers/\(peer)/vectors.py"
        unavailableReason = Peers.missingPythonModules(modules, install: install)
    }

    /// Runs the script with `arguments` and `input` on its standard input, and decodes the JSON it prints.
    func run<Output: Decodable>(_ arguments: [String], input: Data? = nil, as type: Output.Type) async throws -> Output
    {
        let output = try await PythonScript.run(script, arguments: arguments, input: input)
        return try JSONDecoder().decode(Output.self, from: output)
    }
}
