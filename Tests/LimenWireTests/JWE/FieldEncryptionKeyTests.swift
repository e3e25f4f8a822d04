import Foundation
import LimenWire
import Testing

/// A field value with one segment replaced, or its protected header rewritten.
struct FieldValueEdit: Sendable, CustomTestStringConvertible {
    let name: String
    let edit: @Sendable (_ segments: [String]) -> String
    let expected: EncryptionError

    var testDescription: String { name }

    /// An edit that replaces the protected header with `header` (JSON text).
    static func header(_ name: String, _ header: String, expected: EncryptionError) -> FieldValueEdit {
        FieldValueEdit(
            name: name,
            edit: { segments in ([Base64URL.encode(Data(header.utf8))] + segments.dropFirst()).joined(separator: ".") },
            expected: expected)
    }

    /// An edit that replaces segment `index` with `replacement`.
    static func segment(_ name: String, _ index: Int, _ replacement: String, expected: EncryptionError)
        -> FieldValueEdit
    {
        FieldValueEdit(
            name: name,
            edit: { segments in
                var edited = segments
                edited[index] = replacement
                return edited.joined(separator: ".")
            },
            expected: expected)
    }
}

/// The key every refusal case decrypts with: the bytes 0x00…0x1f.
private let testKey = Result { try FieldEncryptionKey(bytes: Array(0..<32) as [UInt8]) }

private let refusals: [FieldValueEdit] = [
    FieldValueEdit(
        name: "a tag with one bit flipped",
        edit: { segments in
            var tag = Array(Base64URL.decode(segments[4]) ?? Data([0]))
            tag[0] ^= 1
            return (segments.dropLast() + [Base64URL.encode(tag)]).joined(separator: ".")
        },
        expected: .tampered),
    .segment("a ciphertext of other bytes", 3, "AAAA", expected: .tampered),
    .segment("a tag cut to 15 bytes", 4, "AAAAAAAAAAAAAAAAAAAA", expected: .malformed(.invalidLength(.tag))),
    .segment("an IV of 8 bytes", 2, "AAAAAAAAAAA", expected: .malformed(.invalidLength(.initializationVector))),
    .segment("an encrypted key with dir", 1, "AAAA", expected: .malformed(.invalidLength(.encryptedKey))),
    .segment("a ciphertext that is not base64url", 3, "a+b/", expected: .malformed(.invalidBase64URL(.ciphertext))),
    .segment("a header that is not JSON", 0, "bm90IGpzb24", expected: .malformed(.invalidHeader)),
    .header(
        "the same header members in another order (the header's bytes are authenticated)",
        #"{"kid":"WqjPPRvAP8oYbAqCwMErhzTg-Quaz-vLx_cef07yhOs","enc":"A256GCM","alg":"dir"}"#, expected: .tampered),
    .header(
        "another key's kid", #"{"alg":"dir","enc":"A256GCM","kid":"someone-else"}"#,
        expected: .wrongKeyID("someone-else")),
    .header("no kid", #"{"alg":"dir","enc":"A256GCM"}"#, expected: .malformed(.missingHeaderParameter("kid"))),
    .header(
        "alg none", #"{"alg":"none","enc":"A256GCM","kid":"WqjPPRvAP8oYbAqCwMErhzTg-Quaz-vLx_cef07yhOs"}"#,
        expected: .unsupportedAlgorithm("none")),
    .header(
        "alg A256KW", #"{"alg":"A256KW","enc":"A256GCM","kid":"WqjPPRvAP8oYbAqCwMErhzTg-Quaz-vLx_cef07yhOs"}"#,
        expected: .unsupportedAlgorithm("A256KW")),
    .header(
        "enc A128GCM", #"{"alg":"dir","enc":"A128GCM","kid":"WqjPPRvAP8oYbAqCwMErhzTg-Quaz-vLx_cef07yhOs"}"#,
        expected: .unsupportedEncryption("A128GCM")),
    .header(
        "enc A256CBC-HS512",
        #"{"alg":"dir","enc":"A256CBC-HS512","kid":"WqjPPRvAP8oYbAqCwMErhzTg-Quaz-vLx_cef07yhOs"}"#,
        expected: .unsupportedEncryption("A256CBC-HS512")),
    .header(
        "a crit parameter",
        #"{"alg":"dir","crit":["exp"],"enc":"A256GCM","exp":1,"kid":"WqjPPRvAP8oYbAqCwMErhzTg-Quaz-vLx_cef07yhOs"}"#,
        expected: .malformed(.invalidHeaderParameter("crit"))),
    .header(
        "compression (zip)",
        #"{"alg":"dir","enc":"A256GCM","kid":"WqjPPRvAP8oYbAqCwMErhzTg-Quaz-vLx_cef07yhOs","zip":"DEF"}"#,
        expected: .malformed(.invalidHeaderParameter("zip"))),
]

@Suite("Field encryption (dir + A256GCM JWE)")
struct FieldEncryptionKeyTests {
    @Test("encrypt then decrypt gives back the plaintext", arguments: ["", "4111 1111 1111 1111", "ünïcødé ✓ 🔐"])
    func roundTrip(plaintext: String) throws {
        let key = FieldEncryptionKey.generate()
        let field = try key.encrypt(Data(plaintext.utf8))
        #expect(String(decoding: try key.decrypt(field), as: UTF8.self) == plaintext)
    }

    @Test("a 1 KiB value round-trips, and two encryptions of it differ (fresh IV)")
    func largeValueFreshIV() throws {
        let key = FieldEncryptionKey.generate()
        let plaintext = Data((0..<1024).map { UInt8(truncatingIfNeeded: $0) })
        let first = try key.encrypt(plaintext)
        let second = try key.encrypt(plaintext)
        #expect(first != second)
        #expect(try key.decrypt(first) == Array(plaintext))
        #expect(try key.decrypt(second) == Array(plaintext))
    }

    @Test("a field value is a compact JWE with alg dir, enc A256GCM and the key's thumbprint as kid")
    func shape() throws {
        let key = FieldEncryptionKey.generate()
        let jwe = try CompactJWE(try key.encrypt(Data("secret".utf8)))
        #expect(jwe.header == ["alg": "dir", "enc": "A256GCM", "kid": .string(key.keyID)])
        #expect(jwe.encryptedKey.isEmpty)
        #expect(jwe.initializationVector.count == 12)
        #expect(jwe.tag.count == 16)
        #expect(jwe.ciphertext.count == 6)
    }

    @Test("another key cannot decrypt: wrong key ID")
    func anotherKey() throws {
        let field = try FieldEncryptionKey.generate().encrypt(Data("secret".utf8))
        let other = FieldEncryptionKey.generate()
        #expect(throws: EncryptionError.wrongKeyID(try CompactJWE(field).keyID)) { try other.decrypt(field) }
    }

    @Test("an altered field value is refused with a typed error", arguments: refusals)
    func refusal(_ edit: FieldValueEdit) throws {
        let key = try testKey.get()
        let segments = try key.encrypt(Data("secret".utf8)).split(separator: ".", omittingEmptySubsequences: false)
            .map(String.init)
        #expect(throws: edit.expected) { try key.decrypt(edit.edit(segments)) }
    }

    @Test(
        "a truncated or padded token is refused as malformed",
        arguments: [(4, "drop the tag"), (6, "an extra segment"), (1, "plain text")])
    func segmentCount(count: Int, description: String) throws {
        let key = FieldEncryptionKey.generate()
        let segments = try key.encrypt(Data("secret".utf8)).split(separator: ".", omittingEmptySubsequences: false)
        let token =
            count == 1
            ? "4111 1111 1111 1111"
            : (Array(segments.prefix(count)) + Array(repeating: "AA", count: max(0, count - 5))).joined(separator: ".")
        #expect(throws: EncryptionError.malformed(.segmentCount(count))) { try key.decrypt(token) }
    }

    @Test("the JWK holds the key and its kid, and reads back as the same key")
    func jwk() throws {
        let key = FieldEncryptionKey.generate()
        let members = try #require(try JSONValue(parsing: key.jwk).objectValue)
        #expect(Set(members.keys) == ["k", "kid", "kty"])
        #expect(members["kty"] == "oct")
        #expect(members["kid"] == .string(key.keyID))
        #expect(try FieldEncryptionKey(jwk: key.jwk) == key)
        #expect(!"\(key)".contains(try #require(members["k"]?.stringValue)))
    }

    @Test(
        "a JWK that is not a 256-bit oct key is refused",
        arguments: [
            #"{"kty":"oct","k":"XctOhJAkA-pD9Lh7ZgW_2A"}"#,
            #"{"kty":"RSA","k":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"}"#,
            #"{"kty":"oct"}"#, "[]",
        ])
    func invalidJWK(json: String) {
        #expect(throws: EncryptionError.malformed(.invalidPayload)) { try FieldEncryptionKey(jwk: Data(json.utf8)) }
    }

    @Test("isFieldValue: true for a field value, false for plaintext, a JWS, or a JWE of another algorithm")
    func isFieldValue() throws {
        let field = try FieldEncryptionKey.generate().encrypt(Data("secret".utf8))
        #expect(CompactJWE.isFieldValue(field))
        #expect(!CompactJWE.isFieldValue("4111 1111 1111 1111"))
        #expect(!CompactJWE.isFieldValue(""))
        #expect(!CompactJWE.isFieldValue("eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln"))
        #expect(!CompactJWE.isFieldValue("a.b.c.d.e"))
        let segments = field.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let noneHeader = Base64URL.encode(Data(#"{"alg":"none","enc":"A256GCM","kid":"k"}"#.utf8))
        let unsigned = ([noneHeader] + segments.dropFirst()).joined(separator: ".")
        #expect(!CompactJWE.isFieldValue(unsigned))
        #expect(throws: EncryptionError.unsupportedAlgorithm("none")) { try CompactJWE(fieldValue: unsigned) }
    }

    @Test("a JWE parses into its five segments and serializes back to the same text")
    func serializationRoundTrip() throws {
        let field = try FieldEncryptionKey.generate().encrypt(Data("secret".utf8))
        let jwe = try CompactJWE(field)
        #expect(jwe.serialized == field)
        let rebuilt = CompactJWE(
            header: jwe.header, encryptedKey: jwe.encryptedKey, initializationVector: jwe.initializationVector,
            ciphertext: jwe.ciphertext, tag: jwe.tag)
        #expect(rebuilt == jwe)
    }
}
