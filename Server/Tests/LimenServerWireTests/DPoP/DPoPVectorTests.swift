import Foundation
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

/// One proof made by joserfc (`Tests/Peers/dpop/proofs.py vectors`), the request it is checked against, and the outcome.
struct JoserfcProof: Decodable, Sendable, CustomTestStringConvertible {
    let name: String
    let proof: String
    let method: String
    let url: String
    let now: Double
    let expected: String
    let jkt: String?
    let accessToken: String?
    let nonce: String?

    var testDescription: String { name }

    private enum CodingKeys: String, CodingKey {
        case name, proof, method, url, now, expected, jkt, nonce
        case accessToken = "access_token"
    }
}

/// `Tests/Peers/dpop/proofs.py`: DPoP proofs made by Python's joserfc.
enum JoserfcProofs {
    /// Why the script cannot run here (joserfc missing); `nil` when it can, and always when peers are required.
    static let unavailableReason = Peers.missingPythonModules("joserfc", install: "pip install joserfc")

    /// The proofs the script makes.
    static func make() async throws -> [JoserfcProof] {
        struct Vectors: Decodable {
            let proofs: [JoserfcProof]
        }
        let output = try await PythonScript.run("Tests/Peers/dpop/proofs.py", arguments: ["vectors"])
        return try JSONDecoder().decode(Vectors.self, from: output).proofs
    }
}

@Suite(
    "DPoP proofs made by joserfc: ES256, EdDSA and RS256 accepted, hostile variants refused as expected",
    .enabled(if: JoserfcProofs.unavailableReason == nil, "python3 with joserfc is missing (pip install joserfc)"))
struct DPoPVectorTests {
    @Test("every joserfc proof gets the outcome the script expects")
    func vectors() async throws {
        let vectors = try await JoserfcProofs.make()
        #expect(vectors.count >= 40)
        for algorithm in ["ES256", "EdDSA", "RS256"] {
            #expect(vectors.contains { $0.name.hasPrefix(algorithm) && $0.expected == "valid" })
        }
        let verifier = DPoPVerifier()
        for vector in vectors {
            let outcome: String
            do {
                let verified = try await verifier.verify(
                    vector.proof, method: vector.method, url: vector.url, accessToken: vector.accessToken,
                    nonce: vector.nonce, now: Date(timeIntervalSince1970: vector.now))
                outcome = "valid"
                #expect(verified.thumbprint == vector.jkt, "\(vector.name): joserfc's thumbprint")
            } catch {
                outcome = error.code
            }
            #expect(outcome == vector.expected, "\(vector.name)")
        }
    }
}
