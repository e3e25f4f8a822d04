import Foundation
import FuzzSupport
import LimenWire
import Testing

/// The JSON corpus in Fuzz/Corpus/JSON (also the JSON harness's seeds), named as JSONTestSuite names its cases:
/// `y_` documents RFC 8259 allows, `n_` documents it forbids, `i_` documents it leaves to the parser.
@Suite("JSON corpus")
struct JSONCorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/JSON")

    static let names: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()

    static func document(_ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(name))
    }

    @Test("the corpus holds documents of each kind")
    func corpusIsThere() {
        for prefix in ["y_", "n_", "i_"] {
            #expect(Self.names.filter { $0.hasPrefix(prefix) }.count >= 5, "too few \(prefix) documents")
        }
    }

    @Test(
        "documents RFC 8259 allows are accepted, by Limen and Foundation alike",
        arguments: names.filter { $0.hasPrefix("y_") })
    func accepted(name: String) throws {
        #expect(try JSONDifferential.check(Self.document(name)))
    }

    @Test("documents RFC 8259 forbids are refused", arguments: names.filter { $0.hasPrefix("n_") })
    func refused(name: String) throws {
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: Self.document(name)) }
    }

    /// Limen's choices where RFC 8259 leaves one (duplicate names, nesting, range): it refuses all of them.
    @Test(
        "documents RFC 8259 leaves to the parser are refused by Limen's limits",
        arguments: names.filter { $0.hasPrefix("i_") })
    func implementationDefined(name: String) throws {
        #expect(try JSONDifferential.check(Self.document(name)) == false)
    }
}
