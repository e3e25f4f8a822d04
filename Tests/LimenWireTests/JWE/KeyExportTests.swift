import Foundation
import LimenWire
import Testing

/// One export made once for the suite (600,000 PBKDF2 rounds each time are slow in a debug build).
private let exported = Result { () throws(EncryptionError) -> (key: FieldEncryptionKey, export: String) in
    let key = FieldEncryptionKey.generate()
    return (key, try key.exported(passphrase: KeyExportTests.passphrase))
}

/// `export` with its protected header's members changed by `edit` (the tag no longer matches, which the checks
/// under test come before).
func rewritingHeader(of export: String, _ edit: (inout [String: JSONValue]) -> Void) throws -> String {
    var segments = export.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    let headerJSON = try #require(Base64URL.decode(segments[0]))
    var header = try #require(try JSONValue(parsing: headerJSON).objectValue)
    edit(&header)
    segments[0] = Base64URL.encode(JSONValue.object(header).serialized())
    return segments.joined(separator: ".")
}

@Suite("Key export under a passphrase (PBES2-HS512+A256KW JWE)")
struct KeyExportTests {
    static let passphrase = "correct horse battery staple ✓"

    @Test("an export imports back as the same key with the same passphrase")
    func roundTrip() throws {
        let (key, export) = try exported.get()
        #expect(try FieldEncryptionKey(importing: export, passphrase: Self.passphrase) == key)
    }

    @Test("an export's header: PBES2-HS512+A256KW, A256GCM, 600,000 rounds, a 16-byte salt, cty jwk+json")
    func header() throws {
        let jwe = try CompactJWE(try exported.get().export)
        #expect(jwe.algorithm == "PBES2-HS512+A256KW")
        #expect(jwe.encryption == "A256GCM")
        #expect(jwe.header["p2c"] == .number(600_000))
        #expect(jwe.header["cty"] == "jwk+json")
        #expect(Base64URL.decode(try #require(jwe.header["p2s"]?.stringValue))?.count == 16)
        #expect(jwe.encryptedKey.count == 40)
    }

    @Test("a wrong passphrase is refused as such")
    func wrongPassphrase() throws {
        #expect(throws: EncryptionError.wrongPassphrase) {
            try FieldEncryptionKey(importing: try exported.get().export, passphrase: "correct horse battery staple")
        }
    }

    @Test(
        "an export whose iteration count is out of bounds is refused before any derivation",
        arguments: [
            (JSONValue.number(1), 1), (.number(599_999), 599_999), (.number(5_000_001), 5_000_001),
            (.number(1e9), 1_000_000_000), (.number(-600_000), -600_000), (.number(1e30), Int.max),
        ])
    func iterationBounds(count: JSONValue, reported: Int) throws {
        let hostile = try rewritingHeader(of: try exported.get().export) { $0["p2c"] = count }
        #expect(throws: EncryptionError.keyDerivationOutOfBounds(parameter: "p2c", value: reported)) {
            try FieldEncryptionKey(importing: hostile, passphrase: Self.passphrase)
        }
    }

    @Test(
        "an export whose salt is too short or too long is refused",
        arguments: [(8, 8), (15, 15), (257, 257)])
    func saltBounds(byteCount: Int, reported: Int) throws {
        let salt = Base64URL.encode([UInt8](repeating: 7, count: byteCount))
        let hostile = try rewritingHeader(of: try exported.get().export) { $0["p2s"] = .string(salt) }
        #expect(throws: EncryptionError.keyDerivationOutOfBounds(parameter: "p2s", value: reported)) {
            try FieldEncryptionKey(importing: hostile, passphrase: Self.passphrase)
        }
    }

    @Test(
        "an export with other algorithms, or without its derivation parameters, is refused with a typed error",
        arguments: [
            ("alg", JSONValue.string("PBES2-HS256+A128KW"), EncryptionError.unsupportedAlgorithm("PBES2-HS256+A128KW")),
            ("alg", .string("none"), .unsupportedAlgorithm("none")),
            ("alg", .string("dir"), .unsupportedAlgorithm("dir")),
            ("enc", .string("A128CBC-HS256"), .unsupportedEncryption("A128CBC-HS256")),
            ("p2c", .null, .malformed(.missingHeaderParameter("p2c"))),
            ("p2c", .number(600_000.5), .malformed(.invalidHeaderParameter("p2c"))),
            ("p2c", .string("600000"), .malformed(.invalidHeaderParameter("p2c"))),
            ("p2s", .null, .malformed(.missingHeaderParameter("p2s"))),
            ("p2s", .number(1), .malformed(.invalidHeaderParameter("p2s"))),
        ])
    func refusedHeader(name: String, value: JSONValue, expected: EncryptionError) throws {
        let hostile = try rewritingHeader(of: try exported.get().export) {
            $0[name] = value == .null ? nil : value
        }
        #expect(throws: expected) { try FieldEncryptionKey(importing: hostile, passphrase: Self.passphrase) }
    }

    @Test("an export with an altered ciphertext fails its tag: tampered")
    func tampered() throws {
        var segments = try exported.get().export.split(separator: ".", omittingEmptySubsequences: false)
            .map(String.init)
        var ciphertext = Array(try #require(Base64URL.decode(segments[3])))
        ciphertext[0] ^= 1
        segments[3] = Base64URL.encode(ciphertext)
        #expect(throws: EncryptionError.tampered) {
            try FieldEncryptionKey(importing: segments.joined(separator: "."), passphrase: Self.passphrase)
        }
    }

    @Test("a field value is not a key export, nor is a truncated export")
    func notAnExport() throws {
        let field = try FieldEncryptionKey.generate().encrypt(Data("secret".utf8))
        #expect(throws: EncryptionError.unsupportedAlgorithm("dir")) {
            try FieldEncryptionKey(importing: field, passphrase: Self.passphrase)
        }
        let truncated = try exported.get().export.split(separator: ".").prefix(4).joined(separator: ".")
        #expect(throws: EncryptionError.malformed(.segmentCount(4))) {
            try FieldEncryptionKey(importing: truncated, passphrase: Self.passphrase)
        }
    }
}
