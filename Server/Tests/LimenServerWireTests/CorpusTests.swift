import Foundation
import ServerFuzzSupport
import Testing

/// The seed corpora of the server's fuzz harnesses (Server/Fuzz/Corpus), replayed through the harnesses' own checks:
/// a check that changes, or a seed it no longer passes, fails here without a sanitizer build.
@Suite("Server fuzz corpora")
struct CorpusTests {
    /// A harness of ``harnesses``: its name (its folders in Server/Fuzz and Server/Fuzz/Corpus) and its check.
    struct Harness: Sendable, CustomTestStringConvertible {
        let name: String
        let check: @Sendable (Data) throws -> Void

        var testDescription: String { name }
    }

    /// One seed of a harness's corpus.
    struct Seed: Sendable, CustomTestStringConvertible {
        let harness: Harness
        let name: String

        var testDescription: String { "\(harness.name)/\(name)" }
    }

    /// Every harness whose check is in Server/Fuzz/Support: adding a harness adds a row here.
    static let harnesses = [
        Harness(name: "FormBody") { try FormBodyCheck.check($0) },
        Harness(name: "AdminJSON") { try AdminJSONCheck.check($0) },
        Harness(name: "PhoneNumber") { try PhoneNumberCheck.check($0) },
        Harness(name: "EventCursor") { try EventCursorCheck.check($0) },
        Harness(name: "CBOR") { try CBORCheck.check($0) },
        Harness(name: "DPoPTargetURI") { try DPoPTargetURICheck.check($0) },
        Harness(name: "WebAuthnResponse") { try WebAuthnResponseCheck.check($0) },
        Harness(name: "OneTimePasswords") { try OneTimePasswordsCheck.check($0) },
    ]

    /// The harnesses whose check needs more than Server/Fuzz/Support (`ProfileData` links `LimenServerCore`).
    static let harnessesWithoutCorpusTest: Set = ["ProfileData"]

    static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz")
    static let folder = fuzzFolder.appendingPathComponent("Corpus")

    static func seeds(_ harness: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(harness).path))
        return (names ?? []).sorted()
    }

    static func seed(_ harness: String, _ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(harness).appendingPathComponent(name))
    }

    /// Every seed of every harness in ``harnesses``.
    static let corpus = harnesses.flatMap { harness in seeds(harness.name).map { Seed(harness: harness, name: $0) } }

    @Test("each harness has seeds", arguments: harnesses)
    func corpusIsThere(_ harness: Harness) {
        #expect(Self.seeds(harness.name).count >= 5, "too few seeds for \(harness.name)")
    }

    @Test("every seed passes its harness's check", arguments: corpus)
    func seedPassesCheck(_ seed: Seed) throws {
        try seed.harness.check(Self.seed(seed.harness.name, seed.name))
    }

    @Test("every harness folder (one with a main.swift) has a row in the table, or is known to have no corpus test")
    func tableListsEveryHarness() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.fuzzFolder.path).filter { name in
            FileManager.default.fileExists(atPath: Self.fuzzFolder.appendingPathComponent(name + "/main.swift").path)
        }
        #expect(Set(folders) == Set(Self.harnesses.map(\.name)).union(Self.harnessesWithoutCorpusTest))
    }
}
